//! Word count and reading time of a post's prose, fair to Korean.
//!
//! The rule (only prose is fed in: not code blocks, math, raw HTML, image alt
//! text or the text of URL autolinks):
//!
//! - Text is split at whitespace; a piece that looks like a URL (`://`, or
//!   starting with `www.`) is skipped. Each piece is then split into Unicode
//!   words (UAX #29, unicode-segmentation), keeping only words with a letter or
//!   digit.
//! - A word with Hangul in it is one Korean word (Korean separates words with
//!   spaces, so `분산 학습은` is two words; `GPU를` is one), and its Hangul,
//!   Han and Kana characters are counted as CJK characters.
//! - Han and Kana outside Hangul words (Chinese, Japanese: no spaces between
//!   words) count as CJK characters, and as one word per two characters.
//! - Any other word is a Latin-script word.
//!
//! `word_count` = Latin words + Korean words + ⌈Han/Kana characters / 2⌉.
//! `reading_minutes` = ⌈Latin words / 230 + CJK characters / 500⌉, at least 1
//! when there is any word at all (230 English words and about 500 Korean
//! syllables a minute are common silent-reading rates).

use unicode_segmentation::UnicodeSegmentation;

const LATIN_WORDS_PER_MINUTE: usize = 230;
const CJK_CHARS_PER_MINUTE: usize = 500;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct WordCount {
    latin_words: usize,
    korean_words: usize,
    /// Hangul, Han and Kana characters: what Korean reading speed is measured in.
    cjk_chars: usize,
    /// Han and Kana outside Hangul words.
    han_kana_chars: usize,
}

impl WordCount {
    /// Counts the words of one piece of prose.
    pub(super) fn add(&mut self, text: &str) {
        if text.is_ascii() {
            // The same rule without decoding characters: most prose of a
            // technical blog is ASCII, and this runs on all of it.
            let whitespace = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r');
            for piece in text.as_bytes().split(whitespace).filter(|piece| !piece.is_empty() && !is_url(piece)) {
                self.latin_words += ascii_words(piece);
            }
            return;
        }
        self.add_any(text);
    }

    /// `add` for any text, character by character.
    fn add_any(&mut self, text: &str) {
        for piece in text.split_whitespace() {
            if is_url(piece.as_bytes()) {
                continue;
            }
            if piece.is_ascii() {
                self.latin_words += ascii_words(piece.as_bytes());
                continue;
            }
            // The usual Korean word, maybe with punctuation around it (`학습은,`):
            // one word, no segmentation needed.
            let core = piece.trim_matches(|c: char| c.is_ascii_punctuation());
            if !core.is_empty() && core.chars().all(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)) {
                self.korean_words += 1;
                self.cjk_chars += core.len() / 3; // each syllable is 3 bytes
                continue;
            }
            for word in piece.unicode_words() {
                self.add_word(word);
            }
        }
    }

    /// Adds the words of another piece of the body, counted elsewhere.
    pub(super) fn merge(&mut self, other: &WordCount) {
        self.latin_words += other.latin_words;
        self.korean_words += other.korean_words;
        self.cjk_chars += other.cjk_chars;
        self.han_kana_chars += other.han_kana_chars;
    }

    fn add_word(&mut self, word: &str) {
        let (mut hangul, mut han_kana) = (0, 0);
        for c in word.chars() {
            if is_hangul(c) {
                hangul += 1;
            } else if is_han_or_kana(c) {
                han_kana += 1;
            }
        }
        if hangul > 0 {
            self.korean_words += 1;
            self.cjk_chars += hangul + han_kana;
        } else if han_kana > 0 {
            self.han_kana_chars += han_kana;
            self.cjk_chars += han_kana;
        } else {
            self.latin_words += 1;
        }
    }

    pub(super) fn words(&self) -> usize {
        self.latin_words + self.korean_words + self.han_kana_chars.div_ceil(2)
    }

    pub(super) fn reading_minutes(&self) -> usize {
        if self.words() == 0 {
            return 0;
        }
        // ⌈latin/230 + cjk/500⌉ in whole numbers.
        let per = LATIN_WORDS_PER_MINUTE * CJK_CHARS_PER_MINUTE;
        let weighted = self.latin_words * CJK_CHARS_PER_MINUTE + self.cjk_chars * LATIN_WORDS_PER_MINUTE;
        weighted.div_ceil(per).max(1)
    }
}

/// `unicode_words().count()` for ASCII text, several times faster: the rules
/// of UAX #29 that ASCII can meet. Letters, digits and `_` join; `:` joins
/// letters, `,` and `;` join digits, `.` and `'` join either (`e.g`, `3.14`,
/// `it's`); a word counts when it has a letter or digit.
/// A piece of text that looks like an address: `://` in it, or `www.` first.
fn is_url(piece: &[u8]) -> bool {
    piece.starts_with(b"www.") || piece.windows(3).any(|w| w == b"://")
}

fn ascii_words(piece: &[u8]) -> usize {
    let at = |i: usize| piece.get(i).copied().unwrap_or(b' ');
    let (mut count, mut in_word, mut has_alphanumeric) = (0, false, false);
    for (i, &b) in piece.iter().enumerate() {
        let joins = match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => true,
            _ if !in_word => false,
            b':' => at(i - 1).is_ascii_alphabetic() && at(i + 1).is_ascii_alphabetic(),
            b',' | b';' => at(i - 1).is_ascii_digit() && at(i + 1).is_ascii_digit(),
            b'.' | b'\'' => {
                let (before, after) = (at(i - 1), at(i + 1));
                (before.is_ascii_alphabetic() && after.is_ascii_alphabetic())
                    || (before.is_ascii_digit() && after.is_ascii_digit())
            }
            _ => false,
        };
        if joins {
            if !in_word {
                in_word = true;
                has_alphanumeric = false;
            }
            has_alphanumeric |= b.is_ascii_alphanumeric();
        } else {
            if in_word && has_alphanumeric {
                count += 1;
            }
            in_word = false;
        }
    }
    if in_word && has_alphanumeric {
        count += 1;
    }
    count
}

fn is_hangul(c: char) -> bool {
    matches!(c,
        '\u{AC00}'..='\u{D7A3}'   // syllables
        | '\u{1100}'..='\u{11FF}' // jamo
        | '\u{3130}'..='\u{318F}' // compatibility jamo
        | '\u{A960}'..='\u{A97F}' // jamo extended-A
        | '\u{D7B0}'..='\u{D7FF}' // jamo extended-B
    )
}

fn is_han_or_kana(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'     // hiragana, katakana
        | '\u{31F0}'..='\u{31FF}'   // katakana phonetic extensions
        | '\u{3400}'..='\u{4DBF}'   // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK unified ideographs
        | '\u{F900}'..='\u{FAFF}'   // compatibility ideographs
        | '\u{FF66}'..='\u{FF9F}'   // half-width katakana
        | '\u{20000}'..='\u{3FFFF}' // supplementary ideographic planes
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> WordCount {
        let mut count = WordCount::default();
        count.add(text);
        count
    }

    #[test]
    fn english_words() {
        let c = count("Hello, world! It's 2026 and e.g. NCCL's all-reduce works.");
        // Hello world It's 2026 and e.g NCCL's all reduce works
        assert_eq!(c.words(), 10);
        assert_eq!(c.reading_minutes(), 1);
        assert_eq!(count(&"word ".repeat(231)).reading_minutes(), 2);
        assert_eq!(count(&"word ".repeat(230)).reading_minutes(), 1);
    }

    #[test]
    fn korean_words_are_space_separated_runs() {
        let c = count("분산 학습은 여러 GPU를 씁니다.");
        assert_eq!(c.words(), 5);
        assert_eq!(c.korean_words, 5);
        assert_eq!(c.cjk_chars, 11); // 분산 학습은 여러 를 씁니다
        // 500 syllables a minute: 501 take two minutes.
        assert_eq!(count(&"가".repeat(500)).reading_minutes(), 1);
        assert_eq!(count(&"가".repeat(501)).reading_minutes(), 2);
    }

    #[test]
    fn mixed_korean_english_and_chinese() {
        let c = count("NCCL all-reduce는 빠르다. 分散学习");
        // NCCL, all, reduce는 (Hangul: Korean), 빠르다, 分散学习 = 4 chars → 2 words
        assert_eq!(c.latin_words, 2);
        assert_eq!(c.korean_words, 2);
        assert_eq!(c.han_kana_chars, 4);
        assert_eq!(c.words(), 6);
    }

    #[test]
    fn ascii_words_agree_with_unicode_segmentation() {
        let alphabet = b"aZq09_:.',; -!x";
        let mut seed = 0x2545_f491_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as usize
        };
        let mut tested = std::collections::HashSet::new();
        for _ in 0..20_000 {
            let piece: Vec<u8> = (0..next() % 12).map(|_| alphabet[next() % alphabet.len()]).collect();
            tested.insert(piece.clone());
            let text = std::str::from_utf8(&piece).unwrap();
            assert_eq!(ascii_words(&piece), text.unicode_words().count(), "{text:?}");
        }
        assert!(tested.len() > 10_000, "{}", tested.len());
    }

    #[test]
    fn ascii_prose_counts_as_any_prose_does() {
        let alphabet = b"aZq09_:.',; -!x/w\t\n\x0B\x0C\r";
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as usize
        };
        for n in 0..20_000 {
            let mut text: String = (0..next() % 40).map(|_| alphabet[next() % alphabet.len()] as char).collect();
            if n % 7 == 0 {
                text.push_str(" https://x.org/a www.b.c");
            }
            let (mut fast, mut any) = (WordCount::default(), WordCount::default());
            fast.add(&text);
            any.add_any(&text);
            assert_eq!(fast, any, "{text:?}");
        }
    }

    #[test]
    fn urls_and_punctuation_are_not_words() {
        assert_eq!(count("see https://example.com/a/b www.example.com — ok").words(), 2);
        assert_eq!(count("... --- !!! ").words(), 0);
        assert_eq!(count("").reading_minutes(), 0);
    }
}

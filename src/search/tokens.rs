//! The rule that turns text into search tokens, in the index and in the
//! reader's query alike. `search.js` runs the same rule in the browser;
//! `tests/search/tokens.json` holds the cases both must agree on.
//!
//! 1. **Normalize**: NFKD, drop the combining accents U+0300–U+036F, NFC,
//!    lowercase (`Café` → `cafe`, `ＧＰＵ` → `gpu`; Hangul is unchanged).
//! 2. **Words**: a run of CJK characters (Hangul syllables, Han, Kana) is one
//!    word; letters and digits joined by `-`, `_` or `.` are one Latin word of
//!    several parts (`all-reduce`, `c10d`, `2.13`), with apostrophes dropped
//!    (`don't` → `dont`). Everything else separates words. A change of script
//!    starts a new word with nothing between (`PyTorch의` → `pytorch`, `의`).
//! 3. **Korean (and other CJK) tokens**: every two neighbouring characters of
//!    a word (`학습을` → `학습`, `습을`), or the character of a one-character
//!    word; and where two CJK words stand with one space between them, the
//!    last character of the first and the first of the second (`분산 학습` →
//!    `분산`, `산학`, `학습`: the tokens of `분산학습`). A word thus finds the
//!    words it begins (`학습` finds `학습을`, `학습은`), a compound finds its
//!    parts written apart, and the parts find the compound.
//! 4. **Latin tokens**: each part, and the parts joined when there are several
//!    (`all-reduce` → `all`, `reduce`, `allreduce`), each lightly stemmed (see
//!    [`stem`]).
//! 5. **Queries** are read into the same words. Every word must match; a
//!    Korean word of three or more syllables that ends in a particle or ending
//!    (`학습을`, `학습이다`) needs only its stem, the rest counting for rank; a
//!    particle written onto a Latin word (`NCCL과`) only counts for rank, as
//!    does the join of two Korean words (as a word of the title or tags when
//!    it is there: the two words together). The last word, while being typed
//!    (no space after it), also matches as a prefix: a Latin word of two
//!    letters or more, a Korean word of one syllable.

use std::borrow::Cow;
use std::ops::Range;

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};

/// Korean particles and endings a query word may end in, longest first
/// (they are tried in this order).
pub const ENDINGS: &[&str] = &[
    "에서는",
    "에서도",
    "으로는",
    "으로도",
    "에게서",
    "이라는",
    "이라고",
    "입니다",
    "이었다",
    "이다",
    "에서",
    "에게",
    "으로",
    "까지",
    "부터",
    "처럼",
    "보다",
    "라는",
    "하는",
    "하고",
    "하기",
    "하면",
    "했다",
    "한다",
    "된다",
    "되는",
    "에는",
    "에도",
    "이나",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "로",
    "와",
    "과",
    "도",
    "만",
];

/// Lowercased, without accents, in compatibility form: what every token is
/// made from.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    normalize_into(text, &mut out);
    out
}

/// [`normalize`], written at the end of `out` (the index normalizes
/// millions of sentences into one buffer). True if `text` is all ASCII and
/// Hangul syllables, which normalizing only lowercases.
pub fn normalize_into(text: &str, out: &mut String) -> bool {
    const NFKD: DecomposingNormalizerBorrowed<'static> = DecomposingNormalizerBorrowed::new_nfkd();
    const NFC: ComposingNormalizerBorrowed<'static> = ComposingNormalizerBorrowed::new_nfc();
    let lowercased = |out: &mut String, piece: &str| {
        let start = out.len();
        out.push_str(piece);
        out[start..].make_ascii_lowercase();
    };
    if text.is_ascii() || text.chars().all(is_plain) {
        lowercased(out, text);
        return true;
    }
    // Most text is ASCII and Hangul syllables, which normalizing leaves as they
    // are (and Hangul has no case): only the pieces between spaces that have
    // anything else are normalized. Lowercasing piece by piece is lowercasing
    // the whole, as a space ends a word (Greek's final sigma included).
    for piece in text.split_inclusive(|c: char| c.is_ascii_whitespace()) {
        if piece.is_ascii() || piece.chars().all(is_plain) {
            lowercased(out, piece);
        } else {
            let decomposed = NFKD.normalize(piece);
            let plain: String = decomposed.chars().filter(|c| !('\u{300}'..='\u{36f}').contains(c)).collect();
            out.push_str(&NFC.normalize(&plain).to_lowercase());
        }
    }
    false
}

fn is_hangul_syllable(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// Hangul syllables, Han and Kana: written without spaces between words (or,
/// in Korean, with particles written on), so read two characters at a time.
pub fn is_cjk(c: char) -> bool {
    is_hangul_syllable(c)
        || ('\u{3040}'..='\u{30FF}').contains(&c)
        || ('\u{3400}'..='\u{4DBF}').contains(&c)
        || ('\u{4E00}'..='\u{9FFF}').contains(&c)
        || ('\u{F900}'..='\u{FAFF}').contains(&c)
}

fn is_connector(c: char) -> bool {
    matches!(c, '-' | '_' | '.')
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

fn is_latin(c: char) -> bool {
    if c.is_ascii() { c.is_ascii_alphanumeric() } else { c.is_alphanumeric() && !is_cjk(c) }
}

/// One word of normalized text, as [`scan`] reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// A CJK run as it is; a Latin word's parts one after the other (its
    /// apostrophes and connectors left out), which is also its joined form.
    pub text: String,
    /// Where each part is in `text` (a CJK run has one).
    pub parts: Vec<Range<usize>>,
    pub cjk: bool,
    /// Written onto the Latin word before it, with nothing between (a
    /// change of script: `PyTorch의`).
    pub after_latin: bool,
    /// The last character of the CJK word before, when this CJK word follows
    /// it with exactly one space between (their join).
    pub join: Option<char>,
}

impl Word {
    pub fn parts(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().map(|range| &self.text[range.clone()])
    }
}

/// Reads normalized text word by word, handing each to `each` (one `Word`
/// is reused: copy what is kept).
pub fn scan(text: &str, each: impl FnMut(&Word)) {
    scan_with(text, &mut Word::default(), each);
}

/// [`scan`] with the `Word` it fills (kept from one text to the next).
fn scan_with(text: &str, word: &mut Word, mut each: impl FnMut(&Word)) {
    let bytes = text.as_bytes();
    // What stood between the last word and this point: nothing, one space,
    // or anything else; and that word's kind and last character.
    let (mut gap, mut last_cjk, mut last_latin) = (Gap::Start, None, false);
    let mut at = 0;
    while at < bytes.len() {
        // Most text is ASCII: what is between words, a byte at a time.
        let b = bytes[at];
        if b < 0x80 && !b.is_ascii_alphanumeric() {
            gap = if gap == Gap::None && b == b' ' { Gap::Space } else { Gap::Other };
            at += 1;
            continue;
        }
        let Some(c) = char_at(text, at) else { break };
        word.text.clear();
        word.parts.clear();
        if is_cjk(c) {
            let start = at;
            let mut last = c;
            at += c.len_utf8();
            while let Some(d) = char_at(text, at).filter(|d| is_cjk(*d)) {
                last = d;
                at += d.len_utf8();
            }
            word.text.push_str(&text[start..at]);
            word.parts.push(0..word.text.len());
            word.cjk = true;
            word.after_latin = gap == Gap::None && last_latin;
            word.join = last_cjk.filter(|_| gap == Gap::Space);
            each(word);
            (gap, last_cjk, last_latin) = (Gap::None, Some(last), false);
        } else if is_latin(c) {
            // Letters and digits, copied a run at a time; a connector starts
            // a part, an apostrophe is left out (each only between two).
            let (mut part, mut run) = (0, at);
            at += c.len_utf8();
            loop {
                while bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric()) {
                    at += 1;
                }
                let Some(d) = char_at(text, at) else { break };
                let next = at + d.len_utf8();
                if is_latin(d) {
                    at = next;
                    continue;
                }
                let joins = (is_connector(d) || is_apostrophe(d)) && char_at(text, next).is_some_and(is_latin);
                if !joins {
                    break;
                }
                word.text.push_str(&text[run..at]);
                if is_connector(d) {
                    word.parts.push(part..word.text.len());
                    part = word.text.len();
                }
                (at, run) = (next, next);
            }
            word.text.push_str(&text[run..at]);
            word.parts.push(part..word.text.len());
            word.cjk = false;
            word.after_latin = false;
            word.join = None;
            each(word);
            (gap, last_cjk, last_latin) = (Gap::None, None, true);
        } else {
            gap = if gap == Gap::None && c == ' ' { Gap::Space } else { Gap::Other };
            at += c.len_utf8();
        }
    }
}

/// The character at byte `at` of `text`, if any.
fn char_at(text: &str, at: usize) -> Option<char> {
    match text.as_bytes().get(at) {
        Some(&b) if b < 0x80 => Some(char::from(b)),
        Some(_) => text[at..].chars().next(),
        None => None,
    }
}

/// The words of normalized text, in order.
pub fn words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    scan(text, |word| words.push(word.clone()));
    words
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    Start,
    None,
    Space,
    Other,
}

/// Every token of `text`, in order and with repeats (a token's count is how
/// often it is there): what the index holds.
pub fn tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    each_token(text, |token| tokens.push(token.to_string()));
    tokens
}

/// Hands every token of `text` to `each`, in order and with repeats.
pub fn each_token(text: &str, each: impl FnMut(&str)) {
    Tokenizer::default().each(text, each);
}

/// Reads texts into tokens, keeping its buffers from one text to the next:
/// the index reads millions of sentences, and hands out their tokens without
/// an allocation each.
#[derive(Default)]
pub struct Tokenizer {
    normalized: String,
    word: Word,
    pair: String,
}

impl Tokenizer {
    /// Hands every token of `text` to `each`, in order and with repeats (a
    /// token's count is how often it is there).
    pub fn each(&mut self, text: &str, mut each: impl FnMut(&str)) {
        self.normalized.clear();
        let plain = normalize_into(text, &mut self.normalized);
        if plain || self.normalized.chars().all(is_plain) {
            plain_tokens(&self.normalized, &mut self.word.text, &mut self.pair, &mut each);
        } else {
            self.each_normalized(each);
        }
    }

    /// [`Tokenizer::each`] of the text in `normalized`, word by word as [`scan`] reads it.
    fn each_normalized(&mut self, mut each: impl FnMut(&str)) {
        let pair = &mut self.pair;
        scan_with(&self.normalized, &mut self.word, |word| {
            if word.cjk {
                let mut chars = word.text.char_indices();
                let Some((_, first)) = chars.next() else { return };
                if let Some(before) = word.join {
                    pair.clear();
                    pair.push(before);
                    pair.push(first);
                    each(pair);
                }
                // Every two neighbouring characters, or the one of a one-character run.
                let (mut start, mut pairs) = (0, 0);
                for (at, c) in chars {
                    each(&word.text[start..at + c.len_utf8()]);
                    start = at;
                    pairs += 1;
                }
                if pairs == 0 {
                    each(&word.text);
                }
            } else if word.parts.len() == 1 {
                each(&stem(&word.text));
            } else {
                for part in word.parts() {
                    each(&stem(part));
                }
                each(&stem(&word.text));
            }
        });
    }
}

/// ASCII or a Hangul syllable: what most of a Korean or English blog's text
/// is, normalized, and what [`plain_tokens`] reads.
fn is_plain(c: char) -> bool {
    c.is_ascii() || is_hangul_syllable(c)
}

/// The tokens of normalized text that is all ASCII and Hangul syllables,
/// by the same rule as [`scan`] and [`Tokenizer::each`]'s words but read a
/// byte at a time, most tokens handed out as slices of the text. `joined`
/// and `pair` are buffers for the words and pairs that are not.
fn plain_tokens(text: &str, joined: &mut String, pair: &mut String, each: &mut impl FnMut(&str)) {
    let bytes = text.as_bytes();
    let joiner = |b: u8| matches!(b, b'-' | b'_' | b'.' | b'\'');
    let (mut at, mut gap, mut last_cjk) = (0, Gap::Start, None);
    while at < bytes.len() {
        let b = bytes[at];
        if b >= 0x80 {
            // A run of Hangul syllables, three bytes each.
            let start = at;
            while bytes.get(at).is_some_and(|b| *b >= 0x80) {
                at += 3;
            }
            if let Some(last) = last_cjk.filter(|_| gap == Gap::Space) {
                pair.clear();
                pair.push_str(&text[last..last + 3]);
                pair.push_str(&text[start..start + 3]);
                each(pair);
            }
            if at - start == 3 {
                each(&text[start..at]);
            }
            for pair in (start..at - 3).step_by(3) {
                each(&text[pair..pair + 6]);
            }
            (gap, last_cjk) = (Gap::None, Some(at - 3));
        } else if b.is_ascii_alphanumeric() {
            // A Latin word: runs of letters and digits, joined by a connector
            // (which starts a part) or an apostrophe (left out).
            let start = at;
            let mut one_run = true;
            loop {
                while bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric()) {
                    at += 1;
                }
                if at + 1 < bytes.len() && joiner(bytes[at]) && bytes[at + 1].is_ascii_alphanumeric() {
                    one_run = false;
                    at += 1;
                    continue;
                }
                break;
            }
            if one_run {
                each(&stem(&text[start..at]));
            } else {
                joined.clear();
                let (mut part, mut run, mut parts) = (0, start, 1);
                for i in start..at {
                    if joiner(bytes[i]) {
                        joined.push_str(&text[run..i]);
                        run = i + 1;
                        if bytes[i] != b'\'' {
                            each(&stem(&joined[part..]));
                            part = joined.len();
                            parts += 1;
                        }
                    }
                }
                joined.push_str(&text[run..at]);
                each(&stem(&joined[part..]));
                if parts > 1 {
                    each(&stem(joined));
                }
            }
            (gap, last_cjk) = (Gap::None, None);
        } else {
            gap = if gap == Gap::None && b == b' ' { Gap::Space } else { Gap::Other };
            at += 1;
        }
    }
}

/// A CJK run's pairs of neighbouring characters, or its one character.
fn grams(run: &[char]) -> Vec<String> {
    if run.len() == 1 {
        return vec![run[0].to_string()];
    }
    run.windows(2).map(|pair| pair.iter().collect()).collect()
}

/// Light English stemming, on words ending in an ASCII letter and longer than
/// three characters, in this order:
///
/// 1. plurals: `-ies` → `-y` (`queries` → `query`); `-sses`, `-xes`, `-ches`,
///    `-shes` lose `-es` (`classes` → `class`, `caches` → `cach`); `-ss` and
///    `-is` stay; else a final `-s` goes (`kernels` → `kernel`, `GPUs` → `gpu`);
/// 2. `-ing` and `-ed` go when at least three characters with a vowel are
///    left (`scheduling` → `schedul`, `string` stays), and then a doubled final
///    consonant but `l`, `s`, `z` is made single (`running` → `run`);
/// 3. a final `-e` goes from words still four characters long or longer
///    (`schedule` → `schedul`, `cache` → `cach`).
pub fn stem(word: &str) -> Cow<'_, str> {
    // Every step takes off an ending of `s`, `g` (-ing), `d` (-ed) or `e`:
    // most words end otherwise. (The endings are ASCII, so the steps work
    // on bytes; only counting letters needs the characters.)
    if !matches!(word.as_bytes().last(), Some(b's' | b'g' | b'd' | b'e')) {
        return Cow::Borrowed(word);
    }
    if word.len() <= 3 {
        return Cow::Borrowed(word);
    }
    let ascii = word.is_ascii();
    let letters = |w: &str| if ascii { w.len() } else { w.chars().count() };
    let count = letters(word);
    if count <= 3 {
        return Cow::Borrowed(word);
    }
    let bytes = word.as_bytes();
    if bytes.ends_with(b"ies") && count > 4 {
        return Cow::Owned(format!("{}y", &word[..word.len() - 3]));
    }
    // Every other step only shortens the word: a slice of it.
    let mut w = bytes;
    if [&b"sses"[..], b"xes", b"ches", b"shes"].iter().any(|end| w.ends_with(end)) {
        w = &w[..w.len() - 2];
    } else if w.ends_with(b"s") && !w.ends_with(b"ss") && !w.ends_with(b"is") {
        w = &w[..w.len() - 1];
    }
    for end in [&b"ing"[..], b"ed"] {
        if let Some(rest) = w.strip_suffix(end)
            && letters(&word[..rest.len()]) >= 3
            && rest.iter().any(|b| matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y'))
        {
            let n = rest.len();
            let doubled =
                n >= 2 && rest[n - 1] == rest[n - 2] && !b"lsz".contains(&rest[n - 1]) && is_consonant(rest[n - 1]);
            w = if doubled { &rest[..n - 1] } else { rest };
            break;
        }
    }
    if w.ends_with(b"e") && letters(&word[..w.len()]) >= 4 {
        w = &w[..w.len() - 1];
    }
    Cow::Borrowed(&word[..w.len()])
}

fn is_consonant(b: u8) -> bool {
    b.is_ascii_lowercase() && !b"aeiou".contains(&b)
}

/// What a query term matches: a token exactly, or (`prefix`) every token
/// that starts with it. Written `text` or `text*`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Term {
    pub text: String,
    pub prefix: bool,
}

impl Term {
    fn exact(text: impl ToString) -> Term {
        Term { text: text.to_string(), prefix: false }
    }

    fn prefix(text: impl Into<String>) -> Term {
        Term { text: text.into(), prefix: true }
    }

    /// `text`, or `text*` for a prefix.
    pub fn written(&self) -> String {
        if self.prefix { format!("{}*", self.text) } else { self.text.clone() }
    }
}

/// One word of a query: a post matches it if, for each entry of `all`, it
/// has a token one of the entry's terms matches. `optional` terms only
/// count for rank, and so does `join`, the join of this Korean word and the
/// next (`분산 학습` → `산학`), which ranks a post where the two stand
/// together (or as one compound) like a word in its title or tags.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueryWord {
    pub all: Vec<Vec<Term>>,
    pub optional: Vec<Term>,
    pub join: Option<Term>,
}

/// The words of a query, as the browser reads them.
pub fn query(text: &str) -> Vec<QueryWord> {
    let normalized = normalize(text);
    let typing = !normalized.ends_with(|c: char| !c.is_alphanumeric());
    let words = words(&normalized);
    let last = words.len().saturating_sub(1);
    let mut out: Vec<QueryWord> = Vec::new();
    for (n, word) in words.iter().enumerate() {
        let typed = typing && n == last;
        let mut q = QueryWord::default();
        if word.cjk {
            let run: Vec<char> = word.text.chars().collect();
            if let (Some(before), Some(previous)) = (word.join, out.last_mut()) {
                previous.join = Some(Term::exact(format!("{before}{}", run[0])));
            }
            // The longest ending that leaves a stem of two syllables or more.
            let ending = ENDINGS.iter().find(|e| word.text.ends_with(*e) && run.len() >= e.chars().count() + 2);
            if word.after_latin && ENDINGS.contains(&word.text.as_str()) {
                q.optional.extend(grams(&run).into_iter().map(Term::exact));
            } else if let Some(ending) = ending {
                let stem = run.len() - ending.chars().count();
                let all = grams(&run);
                q.all.extend(all[..stem - 1].iter().map(|g| vec![Term::exact(g.clone())]));
                q.optional.extend(all[stem - 1..].iter().cloned().map(Term::exact));
            } else if run.len() == 1 && typed {
                q.all.push(vec![Term::prefix(word.text.clone())]);
            } else {
                q.all.extend(grams(&run).into_iter().map(|g| vec![Term::exact(g)]));
            }
        } else {
            let mut any = vec![Term::exact(stem(&word.text))];
            if typed && word.text.chars().count() >= 2 {
                any.push(Term::prefix(word.text.clone()));
            }
            q.all.push(any);
            if word.parts.len() > 1 {
                q.optional.extend(word.parts().map(|p| Term::exact(stem(p))));
            }
        }
        out.push(q);
    }
    // A query of nothing but particles still looks for them.
    out.retain(|q| !q.all.is_empty() || !q.optional.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korean_words_find_what_they_begin() {
        assert_eq!(tokens("학습을"), ["학습", "습을"]);
        assert_eq!(tokens("분산 학습"), ["분산", "산학", "학습"]);
        assert_eq!(tokens("분산학습"), ["분산", "산학", "학습"]);
        assert_eq!(tokens("PyTorch의 kernels"), ["pytorch", "의", "kernel"]);
    }

    /// The tokens of `text` read word by word, as [`scan`] has them.
    fn scanned(text: &str) -> Vec<String> {
        let mut tokenizer = Tokenizer::default();
        normalize_into(text, &mut tokenizer.normalized);
        let mut tokens = Vec::new();
        tokenizer.each_normalized(|token| tokens.push(token.to_string()));
        tokens
    }

    proptest::proptest! {
        #[test]
        fn plain_text_is_read_as_the_scanner_reads_it(pieces in proptest::collection::vec(0usize..26, 0..40)) {
            const PIECES: &[&str] = &[
                "a", "Bc", "kernels", "ING", "0", "9x", " ", "  ", "-", "_", ".", "'", "’", "!", "\n", "학", "습을",
                "분산", "分", "é", "Ω", "all-reduce", "don't", "c10d", "2.13", "x86_64",
            ];
            let text: String = pieces.iter().map(|p| PIECES[*p]).collect();
            proptest::prop_assert_eq!(tokens(&text), scanned(&text), "{:?}", text);
        }
    }

    /// The stemming rule as its comment says it, a character at a time.
    fn stem_by_characters(word: &str) -> String {
        let letters = word.chars().count();
        if letters <= 3 || !word.ends_with(|c: char| c.is_ascii_lowercase()) {
            return word.to_string();
        }
        if let Some(rest) = word.strip_suffix("ies")
            && letters > 4
        {
            return format!("{rest}y");
        }
        let mut w = word;
        if ["sses", "xes", "ches", "shes"].iter().any(|end| w.ends_with(end)) {
            w = &w[..w.len() - 2];
        } else if w.ends_with('s') && !["ss", "is"].iter().any(|end| w.ends_with(end)) {
            w = &w[..w.len() - 1];
        }
        for end in ["ing", "ed"] {
            if let Some(rest) = w.strip_suffix(end)
                && rest.chars().count() >= 3
                && rest.contains(['a', 'e', 'i', 'o', 'u', 'y'])
            {
                let last: Vec<char> = rest.chars().rev().take(2).collect();
                let doubled = last.len() == 2 && last[0] == last[1] && "bcdfghjkmnpqrtvwxy".contains(last[0]);
                w = if doubled { &rest[..rest.len() - 1] } else { rest };
                break;
            }
        }
        if w.ends_with('e') && w.chars().count() >= 4 {
            w = &w[..w.len() - 1];
        }
        w.to_string()
    }

    proptest::proptest! {
        #[test]
        fn stems_follow_the_rule(letters in proptest::collection::vec(0usize..16, 0..9)) {
            const LETTERS: &[&str] = &["s", "e", "d", "i", "n", "g", "l", "t", "a", "x", "h", "c", "y", "ï", "ß", "2"];
            let word: String = letters.iter().map(|l| LETTERS[*l]).collect();
            proptest::prop_assert_eq!(stem(&word).into_owned(), stem_by_characters(&word), "{}", word);
        }
    }

    #[test]
    fn stems() {
        for (word, stemmed) in [
            ("kernels", "kernel"),
            ("queries", "query"),
            ("classes", "class"),
            ("scheduling", "schedul"),
            ("scheduled", "schedul"),
            ("schedule", "schedul"),
            ("running", "run"),
            ("string", "string"),
            ("analysis", "analysis"),
            ("gpus", "gpu"),
            ("c10d", "c10d"),
        ] {
            assert_eq!(stem(word), stemmed, "{word}");
        }
    }
}

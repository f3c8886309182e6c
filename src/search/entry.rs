//! One post's part of the search index, made as its page is rendered: its
//! tokens, each once with its code (the fields it is in and how much the
//! text counts), and what a result shows of the post (title, link, date,
//! tags, summary and passages of its text). Everything here comes from that
//! post alone, so one post's edit changes only its own entry.

use std::cell::RefCell;

use serde::Serialize;

use super::lexicon::Lexicon;
use super::tokens::{Tokenizer, is_cjk};

/// How many bytes of a post's text its entry keeps as passages.
pub const PASSAGE_BYTES: usize = 1600;

/// The length of text (in tokens) a post's weights are measured against: a
/// fixed one, not the blog's average, so that one post's weights never
/// change with another's text.
const USUAL_LENGTH: f64 = 1000.0;

pub const TITLE: u8 = 1;
pub const TAG: u8 = 2;
pub const SUMMARY: u8 = 4;

/// One post as the index sees it.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    pub title: String,
    /// Where the post is, from the search page (`../posts/a/index.html`).
    pub link: String,
    /// The date as the site writes it.
    pub date: String,
    pub tags: Vec<String>,
    pub summary: String,
    /// The post's prose, one block a line.
    pub text: String,
}

/// What a result shows of a post, in its group's file `posts/<n>.js`.
#[derive(Serialize)]
struct Shown<'a> {
    title: &'a str,
    link: &'a str,
    date: &'a str,
    tags: &'a [String],
    summary: &'a str,
    passages: Vec<&'a str>,
}

/// One post's part of the index: its tokens (each once) with their codes,
/// and what a result shows of it (JSON).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    /// The tokens one after another, each ending where `ends` says.
    tokens: String,
    ends: Vec<u32>,
    /// `weight × 8 + fields` of each token, in the order of `tokens`: the
    /// fields 1 for the title, 2 for a tag and 4 for the summary, the weight
    /// (0–15) how much the text counts.
    codes: Vec<u8>,
    shown: String,
}

impl Entry {
    /// The entry of `doc`.
    pub fn of(doc: &Doc) -> Entry {
        thread_local! {
            // Kept from one post to the next: a render thread makes thousands.
            static SCRATCH: RefCell<Scratch> = RefCell::default();
        }
        SCRATCH.with(|scratch| scratch.borrow_mut().entry(doc))
    }

    /// An entry as it was kept: its tokens (`\0` after each), codes and JSON.
    pub(crate) fn from_parts(kept: &str, codes: Vec<u8>, shown: String) -> Option<Entry> {
        let mut entry = Entry { tokens: String::with_capacity(kept.len()), codes, shown, ends: Vec::new() };
        for token in kept.split_terminator('\0') {
            entry.tokens.push_str(token);
            entry.ends.push(entry.tokens.len() as u32);
        }
        (entry.ends.len() == entry.codes.len() && (kept.is_empty() || kept.ends_with('\0'))).then_some(entry)
    }

    /// Its tokens with their codes, in no particular order.
    pub fn tokens(&self) -> impl Iterator<Item = (&str, u8)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, end)| &self.tokens[start as usize..*end as usize])
            .zip(self.codes.iter().copied())
    }

    /// How many tokens it has.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// What a result shows of the post, as JSON.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// Its tokens one after another (each ending where the second says)
    /// and their codes.
    pub(crate) fn parts(&self) -> (&str, &[u8]) {
        (&self.tokens, &self.codes)
    }

    /// Its tokens with their codes, in token order: two entries with the
    /// same tokens and codes give the same list.
    pub fn sorted(&self) -> Vec<(&str, u8)> {
        let mut sorted: Vec<(&str, u8)> = self.tokens().collect();
        sorted.sort_unstable();
        sorted
    }

    /// Whether `other` puts the post in the index the same way.
    pub fn same_as(&self, other: &Entry) -> bool {
        self.shown == other.shown && self.codes.len() == other.codes.len() && self.sorted() == other.sorted()
    }
}

/// What making an entry needs besides the post, kept between posts.
#[derive(Default)]
struct Scratch {
    tokenizer: Tokenizer,
    tally: Tally,
    firsts: Vec<usize>,
}

/// A post's distinct tokens, numbered as they come, each with what is
/// known of it.
#[derive(Default)]
struct Tally {
    found: Lexicon,
    known: Vec<Known>,
}

/// A token's fields, how often the text has it, and whether it is a word
/// (has a letter).
#[derive(Clone, Copy)]
struct Known {
    count: u32,
    fields: u8,
    word: bool,
}

impl Tally {
    fn clear(&mut self) {
        self.found.clear();
        self.known.clear();
    }

    #[inline(always)]
    fn number(&mut self, token: &str) -> &mut Known {
        let (n, new) = self.found.number(token);
        if new {
            self.known.push(Known { count: 0, fields: 0, word: is_word(token) });
        }
        &mut self.known[n]
    }
}

fn is_word(token: &str) -> bool {
    // Most words begin with a letter.
    token.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        || token.chars().any(|c| c.is_ascii_alphabetic() || is_cjk(c) || c.is_alphabetic())
}

impl Scratch {
    fn entry(&mut self, doc: &Doc) -> Entry {
        let Scratch { tokenizer, tally, firsts } = self;
        tally.clear();
        firsts.clear();
        for (text, field) in [(doc.title.as_str(), TITLE), (doc.summary.as_str(), SUMMARY)]
            .into_iter()
            .chain(doc.tags.iter().map(|t| (t.as_str(), TAG)))
        {
            tokenizer.each(text, |token| tally.number(token).fields |= field);
        }
        let sentences = sentences(&doc.text);
        // How many words each sentence is the first to have.
        for sentence in &sentences {
            let mut new = 0;
            tokenizer.each(sentence, |token| {
                let known = tally.number(token);
                if known.count == 0 && known.word {
                    new += 1;
                }
                known.count += 1;
            });
            firsts.push(new);
        }
        let length: u32 = tally.known.iter().map(|k| k.count).sum();
        let (tokens, ends) = tally.found.parts();
        // Most tokens are there a few times: their weights worked out once.
        let few: Vec<u8> = (0..16).map(|count| weight(count, length)).collect();
        let weight_of = |count: u32| few.get(count as usize).copied().unwrap_or_else(|| weight(count, length));
        let codes = tally.known.iter().map(|known| weight_of(known.count) * 8 + known.fields).collect();
        let shown = Shown {
            title: &doc.title,
            link: &doc.link,
            date: &doc.date,
            tags: &doc.tags,
            summary: &doc.summary,
            passages: passages(&sentences, firsts),
        };
        Entry {
            tokens: tokens.to_string(),
            ends: ends.to_vec(),
            codes,
            shown: serde_json::to_string(&shown).expect("a post serializes"),
        }
    }
}

/// How much a token found `count` times in a text of `length` tokens counts,
/// 0–15: BM25's share of the term frequency (k1 = 1.2, b = 0.75), against
/// [`USUAL_LENGTH`]; at least 1 when it is there at all.
fn weight(count: u32, length: u32) -> u8 {
    if count == 0 {
        return 0;
    }
    let (k1, b) = (1.2, 0.75);
    let tf = f64::from(count);
    let saturated = tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * f64::from(length) / USUAL_LENGTH));
    ((saturated / (k1 + 1.0) * 15.0).ceil() as u8).clamp(1, 15)
}

/// The text's sentences: each line split after `.`, `!`, `?` or `。`
/// followed by a space. (No token spans two, so the text's tokens are theirs.)
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let bytes = line.as_bytes();
        let (mut start, mut at) = (0, 0);
        while let Some(stop) = next_stop(bytes, at) {
            let end = match bytes[stop] {
                b'.' | b'!' | b'?' => stop + 1,
                _ if bytes[stop..].starts_with("。".as_bytes()) => stop + 3,
                _ => {
                    at = stop + 1;
                    continue;
                }
            };
            if line[end..].chars().next().is_some_and(char::is_whitespace) {
                out.push(line[start..end].trim());
                start = end;
            }
            at = end;
        }
        out.push(line[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Where the next `.`, `!`, `?` or first byte of a `。` may be from `at`:
/// eight bytes at a time where none is (most of a text).
fn next_stop(bytes: &[u8], mut at: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // High bits where a byte of `x` is `b` (and, past such a byte, maybe more).
    let has = |x: u64, b: u8| {
        let y = x ^ (ONES * u64::from(b));
        y.wrapping_sub(ONES) & !y & (ONES << 7)
    };
    while let Some(eight) = bytes.get(at..at + 8) {
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        if has(x, b'.') | has(x, b'!') | has(x, b'?') | has(x, 0xE3) != 0 {
            break;
        }
        at += 8;
    }
    bytes.get(at..)?.iter().position(|b| matches!(b, b'.' | b'!' | b'?' | 0xE3)).map(|i| at + i)
}

/// The sentences a post's entry keeps to show matches in: as many as
/// [`PASSAGE_BYTES`] hold, those that bring the most new words for their
/// length first (`firsts`: how many words each sentence is the first to
/// have; numbers do not count), kept in the text's order.
fn passages<'a>(sentences: &[&'a str], firsts: &[usize]) -> Vec<&'a str> {
    let worth = |i: usize| firsts[i] * 1024 * 1024 / sentences[i].len().max(1);
    let mut order: Vec<(std::cmp::Reverse<usize>, usize)> =
        (0..sentences.len()).filter(|i| firsts[*i] > 0).map(|i| (std::cmp::Reverse(worth(i)), i)).collect();
    order.sort_unstable();
    let (mut chosen, mut used) = (Vec::new(), 0);
    for (_, i) in order {
        if used + sentences[i].len() <= PASSAGE_BYTES {
            used += sentences[i].len();
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| sentences[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn doc(title: &str, tags: &[&str], text: &str) -> Doc {
        Doc {
            title: title.into(),
            link: "../posts/a/index.html".into(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            text: text.into(),
            ..Doc::default()
        }
    }

    #[test]
    fn passages_keep_the_sentences_that_add_words() {
        let entry = Entry::of(&doc("T", &[], "GPU kernels are fast. GPU kernels are fast. NCCL rings move data."));
        assert!(
            entry.shown.contains("\"passages\":[\"GPU kernels are fast.\",\"NCCL rings move data.\"]"),
            "{}",
            entry.shown
        );
        assert_eq!(
            sentences("One. Two! 셋이다. 2.13 released\nNext.\u{3000}Then?"),
            ["One.", "Two!", "셋이다.", "2.13 released", "Next.", "Then?"]
        );
        let long = "A sentence of more than eight bytes. ぁ and 。 another one。 The end";
        assert_eq!(sentences(long), ["A sentence of more than eight bytes.", "ぁ and 。", "another one。", "The end"]);
    }

    #[test]
    fn tokens_carry_their_fields_and_weights() {
        let entry = Entry::of(&doc("분산 학습", &["nccl"], "학습을 했다. kernels kernel"));
        let codes: std::collections::HashMap<&str, u8> = entry.tokens().collect();
        assert_eq!(codes["분산"] & 7, TITLE);
        assert_eq!(codes["nccl"], TAG, "a tag, not in the text: weight 0");
        // In the title and twice in the text.
        assert_eq!(codes["학습"] & 7, TITLE);
        assert!(codes["kernel"] >> 3 > codes["했다"] >> 3, "{codes:?}");
        assert_eq!(entry.len(), codes.len());
        // The same entry, however its tokens are listed.
        let joined: String = entry.tokens().map(|(t, _)| format!("{t}\0")).collect();
        let kept = Entry::from_parts(&joined, entry.codes.clone(), entry.shown.clone()).unwrap();
        assert!(kept.same_as(&entry) && kept == entry);
        assert!(Entry::from_parts("a\0b\0", vec![8], String::new()).is_none());
    }

    #[test]
    fn entries_are_made_alike_on_any_thread_after_any_post() {
        let docs: Vec<Doc> = (0..50).map(|n| doc(&format!("T{n}"), &["x"], &"word 학습을 ".repeat(n * 7))).collect();
        let here: Vec<Entry> = docs.iter().map(Entry::of).collect();
        let there: Vec<Entry> = std::thread::spawn(move || docs.iter().rev().map(Entry::of).collect()).join().unwrap();
        assert!(here.iter().eq(there.iter().rev()));
    }

    #[test]
    fn weights_grow_with_count_and_shrink_with_length() {
        assert!(weight(1, 100) < weight(5, 100));
        assert!(weight(3, 5000) < weight(3, 100));
        assert_eq!(weight(0, 10), 0);
        assert!((1..=15).contains(&weight(1, 100_000)));
    }
}

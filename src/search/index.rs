//! The index of the site's posts, as the scripts the browser loads from
//! `search/` (never fetched, so it works from `file://`):
//!
//! - `index.js`: how many posts there are, and the shards;
//! - `index/<name>.js`, the shards: the tokens in order, cut into runs of
//!   about [`SHARD_BYTES`], each token with its posts. The manifest lists each
//!   shard's first token and name, so a query loads only the shards of its
//!   tokens (for a prefix, the run of shards its tokens are in). A token's
//!   posts are `[post, code, post, code, …]`, each post number counted from
//!   the one before; the code is `weight × 8 + fields`, the fields 1 for the
//!   title, 2 for a tag and 4 for the summary, the weight (0–15) how much the
//!   text counts, from how often the token is there and how long the post is;
//! - `posts/<n>.js`, one for every [`GROUP`] posts: what a result shows of
//!   each (title, link, date, tags, summary) and passages of its text to
//!   show matches in.
//!
//! Posts are numbered oldest first, so a new post takes the next number and
//! the others keep theirs; everything a post's entry and codes hold comes
//! from that post alone, so an edited post changes its group's file and the
//! shards of the tokens it gained, lost or has more or less often.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

use rayon::prelude::*;
use serde::Serialize;

use super::tokens::{each_token, is_cjk};

/// About how big a shard is (bytes of its file).
pub const SHARD_BYTES: usize = 32 * 1024;

/// How many bytes of a post's text its entry keeps as passages.
pub const PASSAGE_BYTES: usize = 1600;

/// How many posts' entries share a file (`posts/<n>.js` holds the posts
/// numbered from n × GROUP): a file of their own each would cost the
/// site twice the bytes, each file being compressed on its own.
pub const GROUP: usize = 8;

/// The length of text (in tokens) a post's weights are measured against: a
/// fixed one, not the blog's average, so that one post's weights never
/// change with another's text.
const USUAL_LENGTH: f64 = 1000.0;

const TITLE: u8 = 1;
const TAG: u8 = 2;
const SUMMARY: u8 = 4;

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

/// The index's files: name under `search/` → text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Index {
    pub files: BTreeMap<String, String>,
}

impl Index {
    /// The index of the posts whose entries these are, oldest first (a
    /// post's number is its place).
    pub fn build(entries: Vec<Entry>) -> Index {
        let count = entries.len();
        // Each token's posts, gathered on every core: each takes the tokens
        // of its share of the hashes (which the entries carry).
        let shares = rayon::current_num_threads().max(1) as u64;
        let mut tokens: Vec<(&str, Vec<(u32, u8)>)> = (0..shares)
            .into_par_iter()
            .flat_map_iter(|share| {
                let mut at: HashMap<u64, u32, std::hash::BuildHasherDefault<Hashed>> = HashMap::default();
                let mut lists: Vec<(&str, Vec<(u32, u8)>)> = Vec::new();
                for (n, entry) in entries.iter().enumerate() {
                    let tokens = entry.tokens.split('\0').zip(&entry.hashes).zip(&entry.codes);
                    for ((token, &hash), &code) in tokens.filter(|((_, hash), _)| **hash % shares == share) {
                        let mut key = hash;
                        loop {
                            match at.get(&key) {
                                Some(&i) if lists[i as usize].0 == token => {
                                    lists[i as usize].1.push((n as u32, code));
                                    break;
                                }
                                Some(_) => key = key.wrapping_add(1),
                                None => {
                                    at.insert(key, lists.len() as u32);
                                    lists.push((token, vec![(n as u32, code)]));
                                    break;
                                }
                            }
                        }
                    }
                }
                lists
            })
            .collect();
        tokens.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut files = BTreeMap::new();
        let shards = shards(&tokens, &mut files);
        for (group, entries) in entries.chunks(GROUP).enumerate() {
            let mut file = String::new();
            for (n, entry) in entries.iter().enumerate() {
                let _ = writeln!(file, "hanjiSearch.post({},{});", group * GROUP + n, entry.shown);
            }
            files.insert(format!("posts/{group}.js"), file);
        }
        let manifest = serde_json::json!({ "posts": count, "group": GROUP, "shards": shards });
        files.insert("index.js".into(), format!("hanjiSearch.index({manifest});\n"));
        Index { files }
    }
}

/// One post's part of the index: its tokens (each once, `\0` between them)
/// with their codes, and what a result shows of it (JSON).
#[derive(Debug, Clone)]
pub struct Entry {
    tokens: String,
    /// Each token's hash (FxHash), for gathering them across posts.
    hashes: Vec<u64>,
    codes: Vec<u8>,
    shown: String,
}

impl Entry {
    pub fn of(doc: &Doc) -> Entry {
        let mut tally = Tally::with_capacity(doc.text.len() / 8);
        for (text, field) in [(doc.title.as_str(), TITLE), (doc.summary.as_str(), SUMMARY)]
            .into_iter()
            .chain(doc.tags.iter().map(|t| (t.as_str(), TAG)))
        {
            each_token(text, |token| {
                let n = tally.number(token);
                tally.found[n].0 |= field;
            });
        }
        let sentences = sentences(&doc.text);
        // How many words each sentence is the first to have.
        let mut firsts = Vec::with_capacity(sentences.len());
        for sentence in &sentences {
            let mut new = 0;
            each_token(sentence, |token| {
                let n = tally.number(token);
                let (_, count) = &mut tally.found[n];
                if *count == 0 && tally.words[n] {
                    new += 1;
                }
                *count += 1;
            });
            firsts.push(new);
        }
        let length: u32 = tally.found.iter().map(|(_, count)| count).sum();
        let mut entry = Entry {
            tokens: String::with_capacity(tally.text.len() + tally.ranges.len()),
            hashes: std::mem::take(&mut tally.hashes),
            codes: Vec::with_capacity(tally.found.len()),
            shown: String::new(),
        };
        for (n, range) in tally.ranges.iter().enumerate() {
            let token = &tally.text[range.clone()];
            if n > 0 {
                entry.tokens.push('\0');
            }
            entry.tokens.push_str(token);
            let (field, count) = tally.found[n];
            entry.codes.push(weight(count, length) * 8 + field);
        }
        let shown = Shown {
            title: &doc.title,
            link: &doc.link,
            date: &doc.date,
            tags: &doc.tags,
            summary: &doc.summary,
            passages: passages(&sentences, &firsts),
        };
        entry.shown = serde_json::to_string(&shown).expect("a post serializes");
        entry
    }
}

/// A post's distinct tokens, numbered as they come, with their fields and
/// counts: kept in one string, found by their hashes.
#[derive(Default)]
struct Tally {
    text: String,
    ranges: Vec<std::ops::Range<usize>>,
    found: Vec<(u8, u32)>,
    /// Which tokens are words (have a letter), not numbers.
    words: Vec<bool>,
    hashes: Vec<u64>,
    /// Hash → number; a hash two tokens share goes on to the next hash.
    by_hash: HashMap<u64, u32, std::hash::BuildHasherDefault<Hashed>>,
}

impl Tally {
    fn with_capacity(tokens: usize) -> Tally {
        let mut by_hash = HashMap::default();
        by_hash.reserve(tokens);
        Tally { by_hash, ..Tally::default() }
    }

    /// The number of `token`, given it if it is new.
    fn number(&mut self, token: &str) -> usize {
        let own = {
            use std::hash::{BuildHasher, Hasher};
            let mut hasher = Fast::default().build_hasher();
            hasher.write(token.as_bytes());
            hasher.finish()
        };
        let mut hash = own;
        loop {
            match self.by_hash.get(&hash) {
                Some(&n) if self.text[self.ranges[n as usize].clone()] == *token => return n as usize,
                Some(_) => hash = hash.wrapping_add(1),
                None => break,
            }
        }
        let n = self.found.len();
        self.by_hash.insert(hash, n as u32);
        let start = self.text.len();
        self.text.push_str(token);
        self.ranges.push(start..self.text.len());
        self.found.push((0, 0));
        self.hashes.push(own);
        self.words.push(token.chars().any(|c| c.is_ascii_alphabetic() || is_cjk(c) || c.is_alphabetic()));
        n
    }
}

/// FxHash (as rustc's): the index hashes every token of every post, and
/// the standard hasher's defence against chosen keys costs more than all
/// else there; these keys are the blog's own words.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Fast = std::hash::BuildHasherDefault<FastHasher>;

/// For keys that are hashes already: the key is its own hash.
#[derive(Default, Clone, Copy)]
struct Hashed(u64);

impl std::hash::Hasher for Hashed {
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed here");
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
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

/// Writes a token's line of a shard: `"token":[post,code,…]`, posts counted
/// from the one before.
fn posting_line(out: &mut String, token: &str, list: &[(u32, u8)]) {
    out.push_str(&serde_json::to_string(token).expect("a string serializes"));
    out.push_str(":[");
    let mut previous = 0;
    for (i, (post, code)) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        number(out, post - previous);
        out.push(',');
        number(out, u32::from(*code));
        previous = *post;
    }
    out.push(']');
}

/// Writes `n` in decimal (millions of them: no formatting machinery).
fn number(out: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).expect("digits are ASCII"));
}

/// Cuts `tokens` (sorted, with their lines) into shards and writes them;
/// returns each shard's first token and name. A shard begins at a token
/// whose hash is a multiple of `every` (set so that shards hold half of
/// [`SHARD_BYTES`] on average), around any token whose line is half that
/// alone, and where the shard would grow past twice [`SHARD_BYTES`]. So
/// where a shard begins depends on the tokens there and, at most, on those
/// since the last such token: a post's edit rewrites the shards of its
/// tokens and seldom one more.
fn shards(tokens: &[(&str, Vec<(u32, u8)>)], files: &mut BTreeMap<String, String>) -> Vec<(String, String)> {
    let sizes: Vec<usize> = tokens.iter().map(|(token, list)| line_size(token, list)).collect();
    let average = sizes.iter().sum::<usize>() / tokens.len().max(1) + 1;
    // A power of two, so that it changes only when the blog doubles or halves.
    let every = (SHARD_BYTES / 2 / average).max(1).next_power_of_two() as u64;
    let big = |i: usize| sizes[i] >= SHARD_BYTES / 2;
    let mut cuts: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut names = HashSet::new();
    let (mut start, mut size) = (0, 0);
    for i in 0..=tokens.len() {
        let line = sizes.get(i).copied().unwrap_or(0);
        let begins = i == tokens.len()
            || (i > 0
                && (hash(tokens[i].0).is_multiple_of(every) || big(i) || big(i - 1) || size + line > 2 * SHARD_BYTES));
        if begins && i > start {
            let name = format!("{:016x}", hash(tokens[start].0));
            // Two first tokens of one hash: the second shard stays in the first.
            if names.insert(name.clone()) || i == tokens.len() {
                cuts.push((start..i, name));
                (start, size) = (i, 0);
            }
        }
        size += line;
    }
    // Each shard's text, on every core.
    let texts: Vec<String> = cuts
        .par_iter()
        .map(|(range, name)| {
            let mut text = format!("hanjiSearch.shard({name:?},{{");
            for (n, (token, list)) in tokens[range.clone()].iter().enumerate() {
                if n > 0 {
                    text.push_str(",\n");
                }
                posting_line(&mut text, token, list);
            }
            text.push_str("});\n");
            text
        })
        .collect();
    let mut shards = Vec::with_capacity(cuts.len());
    for ((range, name), text) in cuts.into_iter().zip(texts) {
        files.insert(format!("index/{name}.js"), text);
        shards.push((tokens[range.start].0.to_string(), name));
    }
    shards
}

/// The bytes of a token's line in its shard, without writing it.
fn line_size(token: &str, list: &[(u32, u8)]) -> usize {
    let digits = |n: u32| n.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut previous = 0;
    let mut size = token.len() + 6;
    for (post, code) in list {
        size += digits(post - previous) + digits(u32::from(*code)) + 2;
        previous = *post;
    }
    size
}

/// FNV-1a, 64 bits: where shards begin, and their file names.
fn hash(token: &str) -> u64 {
    token.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The text's sentences: each line split after `.`, `!`, `?` or `。`
/// followed by a space. (No token spans two, so the text's tokens are theirs.)
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if matches!(c, '.' | '!' | '?' | '。') && chars.peek().is_some_and(|(_, n)| n.is_whitespace()) {
                out.push(line[start..i + c.len_utf8()].trim());
                start = i + c.len_utf8();
            }
        }
        out.push(line[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The sentences a post's entry keeps to show matches in: as many as
/// [`PASSAGE_BYTES`] hold, those that bring the most new words for their
/// length first (`firsts`: how many words each sentence is the first to
/// have; numbers do not count), kept in the text's order.
fn passages<'a>(sentences: &[&'a str], firsts: &[usize]) -> Vec<&'a str> {
    let worth = |i: usize| firsts[i] * 1024 * 1024 / sentences[i].len().max(1);
    let mut order: Vec<usize> = (0..sentences.len()).filter(|i| firsts[*i] > 0).collect();
    order.sort_by_key(|i| (std::cmp::Reverse(worth(*i)), *i));
    let (mut chosen, mut used) = (Vec::new(), 0);
    for i in order {
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

    fn build(docs: &[Doc]) -> Index {
        Index::build(docs.iter().map(Entry::of).collect())
    }

    fn doc(title: &str, tags: &[&str], text: &str) -> Doc {
        Doc {
            title: title.into(),
            link: "../posts/a/index.html".into(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            text: text.into(),
            ..Doc::default()
        }
    }

    #[test]
    fn tokens_lead_to_their_posts_with_their_fields() {
        let index = build(&[doc("분산 학습", &["nccl"], "Kernels."), doc("B", &[], "학습을 했다. kernel")]);
        let manifest = &index.files["index.js"];
        assert!(manifest.contains("\"posts\":2"), "{manifest}");
        let shards: String =
            index.files.iter().filter(|(f, _)| f.starts_with("index/")).map(|(_, t)| t.as_str()).collect();
        // Post 0 has it in its title (1) and no text; post 1 in its text.
        assert!(shards.contains("\"학습\":[0,1,1,"), "{shards}");
        assert!(shards.contains("\"kernel\":[0,"), "{shards}");
        assert!(index.files["posts/0.js"].contains("\nhanjiSearch.post(1,{\"title\":\"B\""));
    }

    #[test]
    fn shards_begin_where_their_tokens_say() {
        let text = |n: usize| (0..300).map(|w| format!("w{} ", w * 7 + n)).collect::<String>();
        let docs: Vec<Doc> = (0..40).map(|n| doc("T", &[], &text(n))).collect();
        let index = build(&docs);
        let shards: Vec<&String> = index.files.keys().filter(|f| f.starts_with("index/")).collect();
        assert!(shards.len() > 3, "{shards:?}");
        // An edit of one post changes few shards: where they begin stays.
        let mut edited = docs.clone();
        edited[7].text.push_str(" brandnew");
        let after = build(&edited);
        let changed = index.files.iter().filter(|(f, t)| f.starts_with("index/") && after.files.get(*f) != Some(t));
        assert!(changed.count() <= 3, "of {} shards", shards.len());
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
            sentences("One. Two! 셋이다. 2.13 released\nNext"),
            ["One.", "Two!", "셋이다.", "2.13 released", "Next"]
        );
    }

    #[test]
    fn weights_grow_with_count_and_shrink_with_length() {
        assert!(weight(1, 100) < weight(5, 100));
        assert!(weight(3, 5000) < weight(3, 100));
        assert_eq!(weight(0, 10), 0);
        assert!((1..=15).contains(&weight(1, 100_000)));
    }
}

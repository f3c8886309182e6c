//! Every token's posts, gathered from the posts' entries as they come, in
//! any order and from any thread: each token is numbered once in the part of
//! the table its hash says (one lock a part), and its posts are appended to
//! its list. Nothing else of an entry is kept, so what the index holds while
//! it is built is these lists: four bytes a post a token.

use std::sync::Mutex;

use super::entry::Entry;
use super::lexicon::{Key, Lexicon};
use super::shards::{Posting, posting};

/// How many parts the table is cut into, so that threads seldom wait on one.
const PARTS: usize = 16;

pub struct Postings {
    parts: Vec<Mutex<Part>>,
}

#[derive(Default)]
struct Part {
    tokens: Lexicon,
    lists: Vec<Vec<Posting>>,
}

impl Default for Postings {
    fn default() -> Self {
        Postings { parts: (0..PARTS).map(|_| Mutex::default()).collect() }
    }
}

impl Postings {
    /// Adds post number `post`'s tokens.
    pub fn add(&self, post: u32, entry: &Entry) {
        // The tokens by part (a counting sort), then each part's under one lock.
        let part_of = |key: Key| (key.hash >> 60) as usize % PARTS;
        let hashed: Vec<(Key, &str, u8)> = entry.tokens().map(|(token, code)| (Key::of(token), token, code)).collect();
        let mut ends = [0usize; PARTS];
        for (key, ..) in &hashed {
            ends[part_of(*key)] += 1;
        }
        for p in 1..PARTS {
            ends[p] += ends[p - 1];
        }
        let mut order = vec![0u32; hashed.len()];
        let mut at = ends;
        for (i, (key, ..)) in hashed.iter().enumerate().rev() {
            at[part_of(*key)] -= 1;
            order[at[part_of(*key)]] = i as u32;
        }
        let mut start = 0;
        for (p, end) in ends.into_iter().enumerate() {
            if end == start {
                continue;
            }
            let mut part = self.parts[p].lock().expect("postings");
            for &i in &order[start..end] {
                let (key, token, code) = hashed[i as usize];
                let (n, new) = part.tokens.number_keyed(token, key);
                if new {
                    part.lists.push(Vec::new());
                }
                part.lists[n].push(posting(post, code));
            }
            start = end;
        }
    }

    /// Every token with its posts, the tokens in order and each list by post.
    pub fn into_lines(self) -> Vec<(String, Vec<Posting>)> {
        use rayon::prelude::*;
        let mut lines: Vec<(String, Vec<Posting>)> = Vec::new();
        for part in self.parts {
            let part = part.into_inner().expect("postings");
            lines.extend(part.tokens.iter().map(str::to_string).zip(part.lists));
        }
        lines.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
        lines.par_iter_mut().for_each(|(_, list)| list.sort_unstable());
        lines
    }
}

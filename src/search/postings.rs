//! Every token's posts, gathered from the posts' entries as they come, in
//! any order and from any thread: each token is numbered once in the part of
//! the table its hash says (one lock a part), and its posts are appended to
//! its list. Nothing else of an entry is kept, so what the index holds while
//! it is built is these lists: four bytes a post a token.

use std::sync::Mutex;

use super::entry::Entry;
use super::lexicon::{Lexicon, hash};
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
        let mut hashed: Vec<(usize, u64, &str, u8)> = entry
            .tokens()
            .map(|(token, code)| {
                let h = hash(token);
                ((h >> 60) as usize % PARTS, h, token, code)
            })
            .collect();
        hashed.sort_unstable_by_key(|(part, ..)| *part);
        for run in hashed.chunk_by(|a, b| a.0 == b.0) {
            let mut part = self.parts[run[0].0].lock().expect("postings");
            for &(_, h, token, code) in run {
                let (n, new) = part.tokens.number_hashed(token, h);
                if new {
                    part.lists.push(Vec::new());
                }
                part.lists[n].push(posting(post, code));
            }
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

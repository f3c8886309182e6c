//! The shards of the index (`index/<name>.js`): the tokens in order, each
//! with its posts, cut into files of about [`SHARD_BYTES`]. How a token's
//! line is written and read back, and the rule that says where a shard
//! begins, which depends only on the tokens around that place: so a post's
//! edit rewrites the shards of its tokens, and the shards after them begin
//! where they did.

use std::collections::HashSet;

/// About how big a shard is (bytes of its file). The library's own tests cut
/// small blogs into many shards with a smaller size.
pub const SHARD_BYTES: usize = if cfg!(test) { 512 } else { 32 * 1024 };

/// A post's number and its code in one: `post × 128 + code` (a code is
/// below 128). Sorting postings sorts them by post.
pub type Posting = u32;

pub fn posting(post: u32, code: u8) -> Posting {
    post << 7 | u32::from(code)
}

pub fn post_of(posting: Posting) -> u32 {
    posting >> 7
}

pub fn code_of(posting: Posting) -> u8 {
    (posting & 127) as u8
}

/// A shard's name: its first token's FNV-1a hash, in hex.
pub fn name(first: &str) -> String {
    format!("{:016x}", fnv(first))
}

/// FNV-1a, 64 bits: where shards begin, and their names.
fn fnv(token: &str) -> u64 {
    token.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The bytes of a token's line in its shard (near enough: the measure shards
/// are cut by), without writing it.
pub fn line_size(token: &str, list: &[Posting]) -> usize {
    let digits = |n: u32| n.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut previous = 0;
    let mut size = token.len() + 6;
    for p in list {
        size += digits(post_of(*p) - previous) + digits(u32::from(code_of(*p))) + 2;
        previous = post_of(*p);
    }
    size
}

/// Every how many tokens (by hash) a shard begins, for lines of this
/// average size: shards then hold half of [`SHARD_BYTES`] on average. A
/// power of two, so that it changes only when the lines' size doubles or halves.
pub fn every(total_size: u64, tokens: u64) -> u64 {
    let average = total_size / tokens.max(1) + 1;
    ((SHARD_BYTES / 2) as u64 / average).max(1).next_power_of_two()
}

/// Whether a line this size is big: it has a shard of its own.
pub fn is_big(size: usize) -> bool {
    size >= SHARD_BYTES / 2
}

/// The rule of where shards begin, fed the lines in token order. A shard
/// begins at the first line; at a token whose hash is a multiple of
/// `every`; around a big line; and where the shard would grow past twice
/// [`SHARD_BYTES`]. So where a shard begins depends on the tokens there and,
/// at most, on those since the last such token. A shard never begins at a
/// token whose name an earlier shard has (two tokens of one hash: the
/// second stays in the shard before it).
pub struct Cutter {
    every: u64,
    size: usize,
    previous_big: bool,
    started: bool,
    /// The names of the shards begun so far, when the cut is of every line.
    names: Option<HashSet<String>>,
}

impl Cutter {
    /// A cut of every line, from the first.
    pub fn whole(every: u64) -> Cutter {
        Cutter { every, size: 0, previous_big: false, started: false, names: Some(HashSet::new()) }
    }

    /// A cut that starts at the first line of a shard, after a line that was
    /// big or not. It does not know the names before it: the caller checks
    /// that the names it makes are new.
    pub fn from(every: u64, previous_big: bool) -> Cutter {
        Cutter { every, size: 0, previous_big, started: false, names: None }
    }

    /// Whether a shard begins at the line of `token`, `size` bytes.
    pub fn begins(&mut self, token: &str, size: usize) -> bool {
        let big = is_big(size);
        let mut begins = !self.started
            || fnv(token).is_multiple_of(self.every)
            || big
            || self.previous_big
            || self.size + size > 2 * SHARD_BYTES;
        if let Some(names) = &mut self.names
            && begins
        {
            begins = names.insert(name(token)) || !self.started;
        }
        if begins {
            self.size = 0;
        }
        self.size += size;
        self.previous_big = big;
        self.started = true;
        begins
    }
}

/// Writes a token's line of a shard: `"token":[post,code,…]`, posts counted
/// from the one before.
fn write_line(out: &mut Vec<u8>, token: &str, list: &[Posting]) {
    serde_json::to_writer(&mut *out, token).expect("a string serializes");
    out.extend_from_slice(b":[");
    let mut previous = 0;
    for (i, p) in list.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        number(out, post_of(*p) - previous);
        out.push(b',');
        number(out, u32::from(code_of(*p)));
        previous = post_of(*p);
    }
    out.push(b']');
}

/// The text of the shard `name` with these lines.
pub fn text<'a>(name: &str, lines: impl IntoIterator<Item = (&'a str, &'a [Posting])>) -> String {
    let mut text = format!("hanjiSearch.shard({name:?},{{").into_bytes();
    for (n, (token, list)) in lines.into_iter().enumerate() {
        if n > 0 {
            text.extend_from_slice(b",\n");
        }
        write_line(&mut text, token, list);
    }
    text.extend_from_slice(b"});\n");
    String::from_utf8(text).expect("a shard is UTF-8")
}

/// Writes `n` in decimal (millions of them: no formatting machinery).
fn number(out: &mut Vec<u8>, mut n: u32) {
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
    out.extend_from_slice(&digits[at..]);
}

/// A shard's lines read back from its text; None if it is not one [`text`]
/// wrote.
pub fn read(text: &str) -> Option<Vec<(String, Vec<Posting>)>> {
    let rest = text.strip_prefix("hanjiSearch.shard(\"")?;
    let (_, mut rest) = rest.split_once("\",{")?;
    let mut lines = Vec::new();
    if let Some(end) = rest.strip_prefix("});\n") {
        return end.is_empty().then_some(lines);
    }
    loop {
        let (token, after) = json_string(rest)?;
        let mut after = after.strip_prefix(":[")?;
        let mut list = Vec::new();
        let mut post = 0u32;
        if let Some(closed) = after.strip_prefix(']') {
            after = closed;
        } else {
            loop {
                let (delta, next) = digits(after)?;
                let (code, next) = digits(next.strip_prefix(',')?)?;
                post = post.checked_add(delta)?;
                list.push(posting(post, u8::try_from(code).ok().filter(|c| *c < 128)?));
                match next.as_bytes().first()? {
                    b',' => after = &next[1..],
                    b']' => {
                        after = &next[1..];
                        break;
                    }
                    _ => return None,
                }
            }
        }
        lines.push((token, list));
        if let Some(next) = after.strip_prefix(",\n") {
            rest = next;
        } else {
            return (after == "});\n").then_some(lines);
        }
    }
}

/// A JSON string at the start of `text`, and what follows it.
fn json_string(text: &str) -> Option<(String, &str)> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => {
                let token = serde_json::from_str(&text[..=at]).ok()?;
                return Some((token, &text[at + 1..]));
            }
            _ => at += 1,
        }
    }
    None
}

/// A decimal number at the start of `text`, and what follows it.
fn digits(text: &str) -> Option<(u32, &str)> {
    let end = text.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
    if end == 0 || end > 9 {
        return None;
    }
    Some((text[..end].parse().ok()?, &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_reads_back_as_it_was_written() {
        let lines: Vec<(String, Vec<Posting>)> = vec![
            ("all-reduce\"x".into(), vec![posting(0, 9), posting(7, 127), posting(1_000_000, 1)]),
            ("학습".into(), vec![posting(3, 0)]),
            ("z".into(), vec![]),
        ];
        let text = text("00ff", lines.iter().map(|(t, l)| (t.as_str(), l.as_slice())));
        assert!(text.starts_with("hanjiSearch.shard(\"00ff\",{\"all-reduce\\\"x\":[0,9,7,127,999993,1],\n"), "{text}");
        assert_eq!(read(&text), Some(lines));
        assert_eq!(read("hanjiSearch.shard(\"e\",{});\n"), Some(vec![]));
        for broken in [&text[..text.len() - 1], "hanjiSearch.shard(\"e\",{\"a\":[1]});\n", ""] {
            assert_eq!(read(broken), None, "{broken}");
        }
    }

    #[test]
    fn shards_begin_at_the_first_line_and_around_big_lines() {
        let mut cutter = Cutter::whole(1 << 20);
        let begins: Vec<bool> =
            [("a", 10), ("b", 10), ("c", SHARD_BYTES), ("d", 10), ("e", 10)].map(|(t, s)| cutter.begins(t, s)).into();
        assert_eq!(begins, [true, false, true, true, false]);
        // Growing past twice the size.
        let mut cutter = Cutter::from(1 << 20, false);
        let sizes = [SHARD_BYTES / 3; 8];
        let begins: Vec<bool> = sizes.iter().enumerate().map(|(n, s)| cutter.begins(&format!("t{n}"), *s)).collect();
        assert_eq!(begins, [true, false, false, false, false, false, true, false]);
        // Lines of 1/32 of a shard: a shard begins every 16 tokens (by hash);
        // of twice that, every 8.
        let s = SHARD_BYTES as u64;
        assert_eq!((every(10 * (s / 32 - 1), 10), every(10 * (s / 16 - 1), 10)), (16, 8));
    }
}

//! A set of tokens, each numbered as it first comes: kept one after another
//! in one string and found through a table of their hashes, so that numbering
//! a token allocates nothing once the string and the table have grown. A
//! post's tally and the whole index's gathering of tokens both use it.

/// What the table finds a token by: its hash, and its first eight bytes
/// (zero after a shorter token's end), which tell a token of eight bytes or
/// fewer from all others without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub hash: u64,
    first: u64,
}

impl Key {
    /// FxHash (as rustc's) over eight bytes at a time, the last under eight
    /// read without a copy: the index hashes every token of every post, and
    /// the standard hasher's defence against chosen keys costs more than all
    /// else there; these keys are the blog's own words.
    #[inline]
    pub fn of(token: &str) -> Key {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let bytes = token.as_bytes();
        let mut h = bytes.len() as u64;
        let mut first = None;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            first.get_or_insert(word);
            h = (h.rotate_left(5) ^ word).wrapping_mul(K);
        }
        let rest = chunks.remainder();
        let four = |at: usize| u64::from(u32::from_le_bytes(rest[at..at + 4].try_into().expect("four bytes")));
        let last = match rest.len() {
            0 => return Key { hash: h, first: first.unwrap_or(0) },
            1 => u64::from(rest[0]),
            2 => u64::from(rest[0]) | u64::from(rest[1]) << 8,
            3 => u64::from(rest[0]) | u64::from(rest[1]) << 8 | u64::from(rest[2]) << 16,
            // The first four and the last four, which overlap.
            n => four(0) | four(n - 4) << (8 * (n - 4)),
        };
        Key { hash: (h.rotate_left(5) ^ last).wrapping_mul(K), first: first.unwrap_or(last) }
    }
}

#[derive(Debug, Default, Clone)]
pub struct Lexicon {
    text: String,
    /// Where each token ends in `text` (it starts where the one before ends).
    ends: Vec<u32>,
    /// The high half of each token's hash: its place in `slots`.
    hashes: Vec<u32>,
    /// Each token's first eight bytes (see [`Key`]).
    firsts: Vec<u64>,
    /// Open addressing: a token's hash's high half and its number + 1, or 0
    /// for an empty slot (the hash tells most tokens apart without reading
    /// their bytes). Its length is a power of two, at least twice the tokens'.
    slots: Vec<u64>,
}

impl Lexicon {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Forgets every token, keeping the room they took.
    pub fn clear(&mut self) {
        if self.slots.len() > 8 * self.len() {
            // A table grown for a bigger set: empty only the tokens' slots,
            // the last token's first (an earlier one's search never passes
            // a later one's slot, which was empty when it was placed).
            let mask = self.slots.len() - 1;
            for (n, high) in self.hashes.iter().enumerate().rev() {
                let slot = u64::from(*high) << 32 | (n as u64 + 1);
                let mut at = *high as usize & mask;
                while self.slots[at] != slot {
                    at = (at + 1) & mask;
                }
                self.slots[at] = 0;
            }
        } else {
            self.slots.fill(0);
        }
        self.text.clear();
        self.ends.clear();
        self.hashes.clear();
        self.firsts.clear();
    }

    /// Token number `n`.
    #[inline]
    pub fn get(&self, n: usize) -> &str {
        let start = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        &self.text[start..self.ends[n] as usize]
    }

    /// Whether token number `n` is `token`, whose first bytes are `first`.
    #[inline(always)]
    fn is(&self, n: usize, token: &str, first: u64) -> bool {
        let end = self.ends[n] as usize;
        let start = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        end - start == token.len()
            && self.firsts[n] == first
            && (token.len() <= 8 || self.text.as_bytes()[start + 8..end] == token.as_bytes()[8..])
    }

    /// The tokens, by number.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|n| self.get(n))
    }

    /// The tokens one after another, and where each ends.
    pub fn parts(&self) -> (&str, &[u32]) {
        (&self.text, &self.ends)
    }

    /// The number of `token`, and whether it is new (then it is given the next).
    #[inline(always)]
    pub fn number(&mut self, token: &str) -> (usize, bool) {
        self.number_keyed(token, Key::of(token))
    }

    /// [`Lexicon::number`] with the token's [`Key`] already worked out.
    #[inline(always)]
    pub fn number_keyed(&mut self, token: &str, key: Key) -> (usize, bool) {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let high = key.hash >> 32;
        let mask = self.slots.len() - 1;
        let mut at = high as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                break;
            }
            if slot >> 32 == high {
                let n = (slot as u32 - 1) as usize;
                if self.is(n, token, key.first) {
                    return (n, false);
                }
            }
            at = (at + 1) & mask;
        }
        let n = self.len();
        self.slots[at] = high << 32 | (n as u64 + 1);
        self.text.push_str(token);
        self.ends.push(self.text.len() as u32);
        self.hashes.push(high as u32);
        self.firsts.push(key.first);
        (n, true)
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(256);
        self.slots.clear();
        self.slots.resize(size, 0);
        let mask = size - 1;
        for (n, high) in self.hashes.iter().enumerate() {
            let mut at = *high as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = u64::from(*high) << 32 | (n as u64 + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_the_number_they_first_got() {
        let mut lexicon = Lexicon::default();
        let words: Vec<String> = (0..5000).map(|n| format!("w{}", n % 1700)).collect();
        for (i, word) in words.iter().enumerate() {
            let (n, new) = lexicon.number(word);
            assert_eq!(n, i % 1700);
            assert_eq!(new, i < 1700);
        }
        assert_eq!(lexicon.len(), 1700);
        assert_eq!(lexicon.get(1234), "w1234");
        assert_eq!(lexicon.number("학습"), (1700, true));
        lexicon.clear();
        assert_eq!(lexicon.len(), 0);
        assert_eq!(lexicon.number("w5"), (0, true));
        // Cleared when few tokens are in a big table: none is left.
        for word in ["a", "b", "w5", "학습"] {
            lexicon.number(word);
        }
        lexicon.clear();
        assert!(lexicon.slots.iter().all(|s| *s == 0));
        // Tokens that differ anywhere hash apart and are told apart, the
        // short ones by their first bytes.
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abd",
            "bbc",
            "abcd",
            "abce",
            "abcdefg",
            "abcdefh",
            "bbcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefghi",
            "abcdefghj",
            "학습",
            "습을",
        ];
        let keys: Vec<Key> = words.iter().map(|w| Key::of(w)).collect();
        assert_eq!(keys.iter().map(|k| k.hash).collect::<std::collections::HashSet<_>>().len(), words.len());
        assert_eq!(keys[4].first, u64::from_le_bytes(*b"abd\0\0\0\0\0"));
        assert_eq!(keys[8].first, u64::from_le_bytes(*b"abcdefg\0"));
        assert_eq!(keys[13].first, u64::from_le_bytes(*b"abcdefgh"));
        let mut all = Lexicon::default();
        for (n, word) in words.iter().enumerate() {
            assert_eq!(all.number(word), (n, true));
        }
        for (n, word) in words.iter().enumerate() {
            assert_eq!(all.number(word), (n, false));
        }
    }
}

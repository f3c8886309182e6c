//! A set of tokens, each numbered as it first comes: kept one after another
//! in one string and found through a table of their hashes, so that numbering
//! a token allocates nothing once the string and the table have grown. A
//! post's tally and the whole index's gathering of tokens both use it.

/// FxHash (as rustc's), over eight bytes at a time: the index hashes every
/// token of every post, and the standard hasher's defence against chosen
/// keys costs more than all else there; these keys are the blog's own words.
pub fn hash(token: &str) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = 0u64;
    let mut chunks = token.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    h
}

#[derive(Debug, Default, Clone)]
pub struct Lexicon {
    text: String,
    /// Where each token ends in `text` (it starts where the one before ends).
    ends: Vec<u32>,
    /// The high half of each token's hash: its place in `slots`, and a quick
    /// test before the bytes are compared.
    hashes: Vec<u32>,
    /// Open addressing: a token's number + 1, or 0 for an empty slot. Its
    /// length is a power of two, at least twice the tokens'.
    slots: Vec<u32>,
}

impl Lexicon {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Forgets every token, keeping the room they took.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.hashes.clear();
        self.slots.fill(0);
    }

    /// Token number `n`.
    pub fn get(&self, n: usize) -> &str {
        let start = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        &self.text[start..self.ends[n] as usize]
    }

    /// The tokens, by number.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|n| self.get(n))
    }

    /// The number of `token`, and whether it is new (then it is given the next).
    pub fn number(&mut self, token: &str) -> (usize, bool) {
        self.number_hashed(token, hash(token))
    }

    /// [`Lexicon::number`] with the token's [`hash`] already worked out.
    pub fn number_hashed(&mut self, token: &str, hash: u64) -> (usize, bool) {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let high = (hash >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut at = high as usize & mask;
        loop {
            match self.slots[at] {
                0 => break,
                slot => {
                    let n = slot as usize - 1;
                    if self.hashes[n] == high && self.get(n) == token {
                        return (n, false);
                    }
                    at = (at + 1) & mask;
                }
            }
        }
        let n = self.len();
        self.slots[at] = n as u32 + 1;
        self.text.push_str(token);
        self.ends.push(self.text.len() as u32);
        self.hashes.push(high);
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
            self.slots[at] = n as u32 + 1;
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
    }
}

//! Digests: 128-bit names of bytes and of values, the same on every run of one
//! build of Hanji, for what the export keeps between runs (which pages a
//! post's text and its neighbours made, which files a folder had). Two
//! different inputs never share one in practice (xxh3, 128 bits).

use std::hash::{Hash, Hasher};

use xxhash_rust::xxh3::{Xxh3, xxh3_128};

pub type Digest = u128;

/// The digest of `bytes`.
pub fn of_bytes(bytes: &[u8]) -> Digest {
    xxh3_128(bytes)
}

/// The digest of anything `Hash`: every field a `#[derive(Hash)]` writes.
pub fn of<T: Hash + ?Sized>(value: &T) -> Digest {
    let mut digester = Digester::default();
    value.hash(&mut digester);
    digester.digest()
}

/// A `Hasher` whose result is a [`Digest`].
#[derive(Default, Clone)]
pub struct Digester(Xxh3);

impl Digester {
    pub fn digest(&self) -> Digest {
        self.0.digest128()
    }
}

impl Hasher for Digester {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        self.0.digest()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_inputs_have_equal_digests_and_others_differ() {
        assert_eq!(of_bytes(b"nccl"), of_bytes(b"nccl"));
        assert_ne!(of_bytes(b"nccl"), of_bytes(b"ncc1"));
        assert_eq!(of(&("a", 1usize)), of(&("a", 1usize)));
        // Fields are delimited: ("ab", "c") is not ("a", "bc").
        assert_ne!(of(&("ab", "c")), of(&("a", "bc")));
        let mut digester = Digester::default();
        ("a", 2u8).hash(&mut digester);
        assert_eq!(digester.digest(), of(&("a", 2u8)));
    }
}

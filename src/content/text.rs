//! A post's text as the post holds it: whole, or packed (zstd) while a blog
//! is held open for long, by the app and `hanji serve`. A 10,000-post blog's
//! texts are most of what such a program holds; packed, they take 40 to 60 %
//! of the room, and a post's text is unpacked, in microseconds, when a page
//! or a search asks for it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use zstd::bulk::{Compressor, Decompressor};

/// Level 1, the fastest of zstd's usual levels: packing a large blog's texts
/// as it opens costs a tenth of a second, where higher levels save little
/// more on prose.
const LEVEL: i32 = 1;

thread_local! {
    // Kept from one text to the next: a blog's thousands of texts are
    // packed as it opens, and all unpacked by a search of them.
    static PACKER: RefCell<Option<Compressor<'static>>> = RefCell::new(Compressor::new(LEVEL).ok());
    static UNPACKER: RefCell<Decompressor<'static>> =
        RefCell::new(Decompressor::new().expect("a zstd context"));
}

#[derive(Debug, Clone)]
pub(super) enum Text {
    Whole(Arc<str>),
    /// `len` bytes of text once unpacked.
    Packed {
        bytes: Arc<[u8]>,
        len: usize,
    },
}

impl Text {
    pub(super) fn whole(text: &str) -> Text {
        Text::Whole(text.into())
    }

    /// The text packed, or as it is if it is packed already or packing it
    /// fails (it is then held whole).
    pub(super) fn packed(self) -> Text {
        let Text::Whole(text) = &self else { return self };
        let packed = PACKER.with_borrow_mut(|packer| match packer {
            Some(packer) => packer.compress(text.as_bytes()),
            None => Err(std::io::ErrorKind::Unsupported.into()),
        });
        match packed {
            Ok(bytes) => Text::Packed { bytes: bytes.into(), len: text.len() },
            Err(_) => self,
        }
    }

    pub(super) fn is_packed(&self) -> bool {
        matches!(self, Text::Packed { .. })
    }

    pub(super) fn get(&self) -> Cow<'_, str> {
        match self {
            Text::Whole(text) => Cow::Borrowed(text),
            Text::Packed { bytes, len } => {
                // Packed here from a `str`: anything else is a bug.
                let unpacked = UNPACKER.with_borrow_mut(|unpacker| unpacker.decompress(bytes, *len));
                let unpacked = unpacked.expect("a post's packed text unpacks");
                Cow::Owned(String::from_utf8(unpacked).expect("a post's packed text is UTF-8"))
            }
        }
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        match (self, other) {
            (Text::Whole(a), Text::Whole(b)) => a == b,
            _ => self.get() == other.get(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_text_unpacks_to_the_text_and_equals_it() {
        let text = "---\ntitle: 한글 제목\n---\n\nA paragraph, then 한국어 문장. ".repeat(40);
        let packed = Text::whole(&text).packed();
        assert!(packed.is_packed());
        let Text::Packed { bytes, .. } = &packed else { unreachable!() };
        assert!(bytes.len() < text.len() / 4, "{} bytes packed from {}", bytes.len(), text.len());
        assert_eq!(packed.get(), text);
        assert_eq!(packed, Text::whole(&text));
        assert_eq!(packed.clone().packed(), packed);
        assert_ne!(packed, Text::whole(&text[1..]).packed());
        assert_eq!(Text::whole("").packed().get(), "");
    }
}

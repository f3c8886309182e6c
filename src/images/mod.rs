//! Images sized for the screen: what an image of the blog is (its format and
//! size, read from its header), which copies of it a page offers (the
//! widths and formats of `[images]`, never wider than the image), making
//! them (decode once, resize, encode lossy WebP, AVIF, or the original's
//! format), and the cache that keeps what was made, outside the blog and the
//! output, by a hash of the image's bytes and of what each copy is.
//!
//! `Catalog` is what the site asks; the names copies have in the site are
//! `site::routes`'s, and the markup `markdown`'s.

mod catalog;
mod make;

use std::hash::{DefaultHasher, Hash, Hasher};

pub use catalog::{Catalog, Looked, Made};

use crate::config::Images;

/// Changes whenever a copy of the same image and settings would come out
/// different (another resize filter, encoder settings): old cache entries
/// are then not used.
const MAKER_VERSION: u32 = 1;

/// AVIF's encoder speed, 1 (slowest, smallest) to 10: the fastest, as even
/// that takes many times WebP's time.
const AVIF_SPEED: u8 = 10;

/// Whether this Hanji makes AVIF copies (the `avif` feature; rav1e is slow
/// to build). Without it, `avif = true` makes WebP only, and `load` says so.
pub const AVIF_BUILT_IN: bool = cfg!(feature = "avif");

/// The image formats Hanji reads; others (SVG) are shown as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    Png,
    Jpeg,
    Gif,
    Webp,
    Avif,
}

impl Format {
    /// The extension of a copy in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Jpeg => "jpg",
            Format::Gif => "gif",
            Format::Webp => "webp",
            Format::Avif => "avif",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
            Format::Gif => "image/gif",
            Format::Webp => "image/webp",
            Format::Avif => "image/avif",
        }
    }

    /// The format of a copy's extension (`webp`, `jpg`).
    pub fn of_extension(extension: &str) -> Option<Format> {
        match extension {
            "png" => Some(Format::Png),
            "jpg" => Some(Format::Jpeg),
            "gif" => Some(Format::Gif),
            "webp" => Some(Format::Webp),
            "avif" => Some(Format::Avif),
            _ => None,
        }
    }
}

/// What an image is, from its header: its format, and its size as shown
/// (turned as its EXIF orientation says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    pub format: Format,
    pub width: u32,
    pub height: u32,
}

/// One copy of an image: its width and format (its height keeps the ratio).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Copy {
    pub width: u32,
    pub format: Format,
}

impl Copy {
    /// Its height, for an image of `facts`: the width's share, rounded, at
    /// least one pixel.
    pub fn height(self, facts: &Facts) -> u32 {
        let height = (u64::from(facts.height) * u64::from(self.width) + u64::from(facts.width) / 2)
            / u64::from(facts.width.max(1));
        (height as u32).max(1)
    }
}

/// The copies a page offers of an image: a set of widths, each in the
/// source formats (`sources`, best first) and in the fallback format (the
/// image's own), whose widest entry may be the image itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Ascending; the last is the image's own width when it is no wider than
    /// the widest setting.
    pub widths: Vec<u32>,
    pub sources: Vec<Format>,
    pub fallback: Format,
    /// The image's own width: a fallback entry of that width is the image
    /// itself, not a copy.
    pub own_width: u32,
}

impl Plan {
    /// What to offer of an image of `facts` under `settings`; None when the
    /// image is shown as it is: resizing is off, it is a GIF (which may move),
    /// or there is nothing to offer but the image itself.
    pub fn of(facts: &Facts, settings: &Images) -> Option<Plan> {
        if !settings.resize || matches!(facts.format, Format::Gif | Format::Avif) {
            return None;
        }
        let wanted = settings.sorted_widths();
        let widest = *wanted.last()?;
        let mut widths: Vec<u32> = wanted.into_iter().filter(|w| *w < facts.width).collect();
        if facts.width <= widest {
            widths.push(facts.width);
        }
        let mut sources = Vec::new();
        if settings.avif && AVIF_BUILT_IN {
            sources.push(Format::Avif);
        }
        if settings.webp && facts.format != Format::Webp {
            sources.push(Format::Webp);
        }
        let plan = Plan { widths, sources, fallback: facts.format, own_width: facts.width };
        (plan.widths.len() > 1 || !plan.sources.is_empty()).then_some(plan)
    }

    /// Every copy to make: each width in each source format, and in the
    /// fallback format but at the image's own width (the image itself).
    pub fn copies(&self) -> Vec<Copy> {
        let mut copies = Vec::new();
        for &width in &self.widths {
            copies.extend(self.sources.iter().map(|&format| Copy { width, format }));
            if width != self.own_width {
                copies.push(Copy { width, format: self.fallback });
            }
        }
        copies
    }

    pub fn has(&self, copy: Copy) -> bool {
        self.copies().contains(&copy)
    }
}

/// The cache's name for a copy: a hash of the image's bytes (its `source`
/// hash), the copy, the quality of lossy formats and the maker's version,
/// so a changed setting makes only the copies it changes.
pub fn key(source: u128, copy: Copy, settings: &Images) -> String {
    let lossy = matches!(copy.format, Format::Webp | Format::Avif | Format::Jpeg);
    let quality = if lossy { settings.quality } else { 0 };
    let mut high = DefaultHasher::new();
    let mut low = DefaultHasher::new();
    ("copy", MAKER_VERSION, source, copy, quality).hash(&mut high);
    ("copy low", MAKER_VERSION, source, copy, quality).hash(&mut low);
    format!("{:016x}{:016x}.{}", high.finish(), low.finish(), copy.format.extension())
}

/// A hash of an image's bytes: 128 bits, two SipHash runs with fixed keys,
/// the same on every run (as the highlight cache's).
pub fn source_hash(bytes: &[u8]) -> u128 {
    let mut high = DefaultHasher::new();
    let mut low = DefaultHasher::new();
    ("image", bytes).hash(&mut high);
    ("image low", bytes).hash(&mut low);
    (u128::from(high.finish()) << 64) | u128::from(low.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(format: Format, width: u32, height: u32) -> Facts {
        Facts { format, width, height }
    }

    #[test]
    fn copies_are_never_wider_than_the_image() {
        let settings = Images::default();
        let plan = Plan::of(&facts(Format::Png, 1000, 500), &settings).unwrap();
        assert_eq!(plan.widths, [480, 800, 1000], "the image's own width last");
        assert_eq!(plan.sources, [Format::Webp]);
        let copies = plan.copies();
        assert!(copies.iter().all(|c| c.width <= 1000), "{copies:?}");
        assert!(!copies.contains(&Copy { width: 1000, format: Format::Png }), "the PNG itself is the widest");
        assert!(copies.contains(&Copy { width: 1000, format: Format::Webp }));
        assert_eq!(copies.len(), 5);

        let big = Plan::of(&facts(Format::Jpeg, 4000, 3000), &settings).unwrap();
        assert_eq!(big.widths, [480, 800, 1200, 1600], "none at 4000: wider than any screen needs");
        assert!(big.copies().contains(&Copy { width: 1600, format: Format::Jpeg }));

        let small = Plan::of(&facts(Format::Png, 300, 200), &settings).unwrap();
        assert_eq!(small.copies(), [Copy { width: 300, format: Format::Webp }], "only a WebP of its own size");
        let no_webp = Images { webp: false, ..Images::default() };
        assert_eq!(Plan::of(&facts(Format::Png, 300, 200), &no_webp), None, "nothing to offer");
        assert_eq!(Plan::of(&facts(Format::Gif, 2000, 1000), &settings), None, "a GIF may move");
        assert_eq!(Plan::of(&facts(Format::Png, 2000, 1000), &Images { resize: false, ..Images::default() }), None);
        let avif = Images { avif: true, ..Images::default() };
        let sources = if AVIF_BUILT_IN { vec![Format::Avif] } else { vec![] };
        let webp_source = Plan::of(&facts(Format::Webp, 2000, 1000), &avif).unwrap();
        assert_eq!(webp_source.sources, sources, "a WebP needs no WebP copy");
    }

    #[test]
    fn heights_keep_the_ratio() {
        let facts = facts(Format::Png, 1000, 333);
        assert_eq!(Copy { width: 480, format: Format::Webp }.height(&facts), 160);
        assert_eq!(Copy { width: 1, format: Format::Webp }.height(&Facts { height: 1, ..facts }), 1);
    }

    #[test]
    fn a_changed_setting_changes_only_the_keys_it_touches() {
        let settings = Images::default();
        let webp = Copy { width: 480, format: Format::Webp };
        let png = Copy { width: 480, format: Format::Png };
        let better = Images { quality: 90, ..Images::default() };
        assert_ne!(key(1, webp, &settings), key(1, webp, &better), "WebP is lossy");
        assert_eq!(key(1, png, &settings), key(1, png, &better), "PNG is not");
        assert_ne!(key(1, webp, &settings), key(2, webp, &settings), "other bytes");
        assert!(key(1, webp, &settings).ends_with(".webp"));
        assert_eq!(source_hash(b"abc"), source_hash(b"abc"));
        assert_ne!(source_hash(b"abc"), source_hash(b"abd"));
    }
}

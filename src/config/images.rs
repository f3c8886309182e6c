//! `[images]`: how the images posts show are sized for the screen: the widths
//! of the smaller copies, the formats beside the original, their quality,
//! and the `sizes` the theme lays images out at. Values only (see `images`).

use serde::{Deserialize, Serialize};

/// The widths, in pixels, of the smaller copies of an image: a phone, a
/// tablet or laptop, and screens of two and three device pixels a CSS pixel.
pub const DEFAULT_WIDTHS: [u32; 4] = [480, 800, 1200, 1600];

/// The most pixels Hanji decodes an image of, in millions, whatever
/// `max_megapixels` says: a small file can claim a huge image (a 1.5 KB PNG
/// of 50,000 × 50,000 pixels would need 7.5 GB). 100 million pixels is the
/// largest camera's; decoded, at most 800 MB.
pub const MAX_MEGAPIXELS: u32 = 100;

/// The default theme's post column: 48rem wide, else the screen less its
/// margins. A theme that lays images out otherwise sets its own.
pub const DEFAULT_SIZES: &str = "(min-width: 51rem) 48rem, calc(100vw - 2rem)";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Images {
    /// Make the smaller copies and the WebP (and AVIF) beside each image a
    /// post shows, and the markup that offers them; `false` shows every
    /// image as it is (still with its width and height).
    pub resize: bool,
    /// Widths of the copies; none wider than the image itself is made.
    pub widths: Vec<u32>,
    /// Lossy WebP beside the original's format.
    pub webp: bool,
    /// AVIF too: smaller still, and much slower to make.
    pub avif: bool,
    /// Quality of the lossy copies (WebP, AVIF, JPEG), 1–100.
    pub quality: u8,
    /// The `sizes` attribute: how wide the theme shows an image.
    pub sizes: String,
    /// Images larger than this many million pixels are shown as they are,
    /// with a warning (decoding one would take too much memory).
    pub max_megapixels: u32,
}

impl Default for Images {
    fn default() -> Self {
        Self {
            resize: true,
            widths: DEFAULT_WIDTHS.to_vec(),
            webp: true,
            avif: false,
            quality: 80,
            sizes: DEFAULT_SIZES.into(),
            max_megapixels: 50,
        }
    }
}

impl Images {
    /// What is wrong with these settings, with the key it is about and a hint.
    pub fn problem(&self) -> Option<(&'static str, String, &'static str)> {
        if self.widths.is_empty() || self.widths.iter().any(|w| !(16..=8192).contains(w)) {
            return Some((
                "widths",
                "`widths` must be widths from 16 to 8192 pixels".into(),
                "write widths = [480, 800, 1200, 1600]",
            ));
        }
        if !(1..=100).contains(&self.quality) {
            return Some((
                "quality",
                format!("`quality` is {}; it must be from 1 to 100", self.quality),
                "write quality = 80",
            ));
        }
        if self.max_megapixels == 0 {
            return Some(("max_megapixels", "`max_megapixels` must be at least 1".into(), "write max_megapixels = 50"));
        }
        None
    }

    /// The most pixels an image is decoded at, in millions: `max_megapixels`,
    /// but never more than [`MAX_MEGAPIXELS`].
    pub fn megapixels(&self) -> u32 {
        self.max_megapixels.min(MAX_MEGAPIXELS)
    }

    /// The widths in order, without repeats.
    pub fn sorted_widths(&self) -> Vec<u32> {
        let mut widths = self.widths.clone();
        widths.sort_unstable();
        widths.dedup();
        widths
    }
}

//! Reading an image's header, and making its copies: decoded once, turned as
//! its EXIF orientation says, resized with a Lanczos filter
//! (`fast_image_resize`), and encoded as lossy WebP (libwebp, through
//! `webp`), AVIF (`ravif`, through `image`), JPEG or PNG.

use std::io::Cursor;

use fast_image_resize::images::Image as Pixels;
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType as PngFilter, PngEncoder};
use image::metadata::Orientation;
use image::{DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder, ImageFormat, ImageReader, Limits};
use rayon::prelude::*;

use super::{AVIF_SPEED, Copy, Facts, Format};
use crate::config::Images;

/// What Hanji reads of `bytes`: None for a file that is not an image Hanji
/// sizes (an SVG, an AVIF), an error for one that claims to be a PNG, JPEG,
/// GIF or WebP but cannot be read.
pub fn decode_facts(bytes: &[u8]) -> Result<Option<Facts>, String> {
    let reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    let Some(format) = reader.format().and_then(format_of) else { return Ok(None) };
    let mut decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions();
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let (width, height) = if turns(orientation) { (height, width) } else { (width, height) };
    if width == 0 || height == 0 {
        return Err("the image has no pixels".into());
    }
    Ok(Some(Facts { format, width, height }))
}

fn format_of(format: ImageFormat) -> Option<Format> {
    match format {
        ImageFormat::Png => Some(Format::Png),
        ImageFormat::Jpeg => Some(Format::Jpeg),
        ImageFormat::Gif => Some(Format::Gif),
        ImageFormat::WebP => Some(Format::Webp),
        _ => None,
    }
}

/// Whether an orientation turns the image a quarter, swapping its sides.
fn turns(orientation: Orientation) -> bool {
    matches!(
        orientation,
        Orientation::Rotate90 | Orientation::Rotate270 | Orientation::Rotate90FlipH | Orientation::Rotate270FlipH
    )
}

/// Makes `copies` of the image in `bytes` (of `facts`): decoded once, then
/// each width resized once and encoded in each of its formats, in parallel.
/// Each copy's bytes, or why it could not be made.
pub fn make_copies(bytes: &[u8], facts: &Facts, copies: &[Copy], settings: &Images) -> Vec<Result<Vec<u8>, String>> {
    make(bytes, facts, copies, settings, Spread::EveryCore)
}

/// The same on this thread alone: for a caller that other threads wait for
/// (an export's page that asked first for an image). Work shared out to
/// other threads while holding them waiting could let this thread, idle
/// until that work is done, take up a page that waits for the same image:
/// a wait on itself. The export's pages are spread over every core instead.
pub fn make_copies_in_turn(
    bytes: &[u8],
    facts: &Facts,
    copies: &[Copy],
    settings: &Images,
) -> Vec<Result<Vec<u8>, String>> {
    make(bytes, facts, copies, settings, Spread::ThisThread)
}

#[derive(Clone, Copy, PartialEq)]
enum Spread {
    EveryCore,
    ThisThread,
}

fn make(
    bytes: &[u8],
    facts: &Facts,
    copies: &[Copy],
    settings: &Images,
    spread: Spread,
) -> Vec<Result<Vec<u8>, String>> {
    let decoded = match decode(bytes, facts, settings) {
        Ok(decoded) => decoded,
        Err(error) => return copies.iter().map(|_| Err(error.clone())).collect(),
    };
    let mut widths: Vec<u32> = copies.iter().map(|c| c.width).collect();
    widths.sort_unstable();
    widths.dedup();
    let resize_one = |&width: &u32| (width, resize(&decoded, width, facts));
    let resized: Vec<(u32, Result<Pixels<'static>, String>)> = match spread {
        Spread::EveryCore => widths.par_iter().map(resize_one).collect(),
        Spread::ThisThread => widths.iter().map(resize_one).collect(),
    };
    let encode_one = |copy: &Copy| {
        let (_, pixels) = resized.iter().find(|(width, _)| *width == copy.width).expect("every width resized");
        let pixels = pixels.as_ref().map_err(Clone::clone)?;
        encode(pixels, copy.format, settings)
    };
    match spread {
        Spread::EveryCore => copies.par_iter().map(encode_one).collect(),
        Spread::ThisThread => copies.iter().map(encode_one).collect(),
    }
}

/// The image's pixels, turned upright, as 8-bit RGB or RGBA.
fn decode(bytes: &[u8], facts: &Facts, settings: &Images) -> Result<Pixels<'static>, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    let mut limits = Limits::default();
    // Room for the pixels of the largest image allowed, with a margin.
    limits.max_alloc = Some(u64::from(settings.megapixels()) * 1_000_000 * 8 + (64 << 20));
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    image.apply_orientation(orientation);
    let (width, height) = (image.width(), image.height());
    if (width, height) != (facts.width, facts.height) {
        return Err(format!("the image is {width}×{height}, not {}×{} as its header says", facts.width, facts.height));
    }
    let pixels = if image.color().has_alpha() {
        Pixels::from_vec_u8(width, height, image.into_rgba8().into_raw(), PixelType::U8x4)
    } else {
        Pixels::from_vec_u8(width, height, image.into_rgb8().into_raw(), PixelType::U8x3)
    };
    pixels.map_err(|e| e.to_string())
}

fn resize(pixels: &Pixels<'static>, width: u32, facts: &Facts) -> Result<Pixels<'static>, String> {
    if width == pixels.width() {
        return Ok(pixels.copy());
    }
    let height = Copy { width, format: Format::Png }.height(facts);
    let mut resized = Pixels::new(width, height, pixels.pixel_type());
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    Resizer::new().resize(pixels, &mut resized, &options).map_err(|e| e.to_string())?;
    Ok(resized)
}

fn encode(pixels: &Pixels<'static>, format: Format, settings: &Images) -> Result<Vec<u8>, String> {
    let (width, height) = (pixels.width(), pixels.height());
    let alpha = pixels.pixel_type() == PixelType::U8x4;
    let color = if alpha { ExtendedColorType::Rgba8 } else { ExtendedColorType::Rgb8 };
    let buffer = pixels.buffer();
    let mut out = Vec::new();
    match format {
        Format::Webp => {
            let layout = if alpha { webp::PixelLayout::Rgba } else { webp::PixelLayout::Rgb };
            let encoder = webp::Encoder::new(buffer, layout, width, height);
            let encoded = encoder
                .encode_simple(false, f32::from(settings.quality))
                .map_err(|e| format!("WebP could not be made: {e:?}"))?;
            out.extend_from_slice(&encoded);
        }
        Format::Avif => out = avif(buffer, width, height, color, settings.quality)?,
        Format::Jpeg if alpha => {
            // JPEG has no alpha: a JPEG source never has it, so this is not reached.
            return Err("a JPEG cannot keep transparency".into());
        }
        Format::Jpeg => {
            JpegEncoder::new_with_quality(&mut out, settings.quality)
                .write_image(buffer, width, height, color)
                .map_err(|e| e.to_string())?;
        }
        Format::Png => {
            PngEncoder::new_with_quality(&mut out, CompressionType::Default, PngFilter::Adaptive)
                .write_image(buffer, width, height, color)
                .map_err(|e| e.to_string())?;
        }
        Format::Gif => return Err("GIF copies are not made".into()),
    }
    Ok(out)
}

#[cfg(feature = "avif")]
fn avif(pixels: &[u8], width: u32, height: u32, color: ExtendedColorType, quality: u8) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    image::codecs::avif::AvifEncoder::new_with_speed_quality(&mut out, AVIF_SPEED, quality)
        .write_image(pixels, width, height, color)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(not(feature = "avif"))]
fn avif(_: &[u8], _: u32, _: u32, _: ExtendedColorType, _: u8) -> Result<Vec<u8>, String> {
    Err(format!("this Hanji was built without AVIF (at speed {AVIF_SPEED}); build it with `--features avif`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG of `width`×`height` with a gradient, made here.
    pub(crate) fn png(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 128]));
        let mut out = Vec::new();
        PngEncoder::new(&mut out).write_image(image.as_raw(), width, height, ExtendedColorType::Rgb8).unwrap();
        out
    }

    #[test]
    fn copies_have_their_width_and_format() {
        let bytes = png(1000, 500);
        let facts = decode_facts(&bytes).unwrap().unwrap();
        assert_eq!(facts, Facts { format: Format::Png, width: 1000, height: 500 });
        let copies = [Copy { width: 480, format: Format::Webp }, Copy { width: 480, format: Format::Png }];
        let made = make_copies(&bytes, &facts, &copies, &Images::default());
        let webp = made[0].as_ref().unwrap();
        assert_eq!(&webp[..4], b"RIFF");
        assert_eq!(&webp[8..12], b"WEBP");
        let again = decode_facts(webp).unwrap().unwrap();
        assert_eq!((again.format, again.width, again.height), (Format::Webp, 480, 240));
        let png = decode_facts(made[1].as_ref().unwrap()).unwrap().unwrap();
        assert_eq!((png.format, png.width, png.height), (Format::Png, 480, 240));
    }

    #[cfg(feature = "avif")]
    #[test]
    fn avif_copies_are_avif() {
        let bytes = png(200, 100);
        let facts = decode_facts(&bytes).unwrap().unwrap();
        let made = make_copies(&bytes, &facts, &[Copy { width: 100, format: Format::Avif }], &Images::default());
        let avif = made[0].as_ref().unwrap();
        assert_eq!(&avif[4..12], b"ftypavif", "an AVIF file");
    }

    #[test]
    fn what_is_not_an_image_says_so() {
        assert_eq!(decode_facts(b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), Ok(None), "shown as it is");
        let mut truncated = png(64, 64);
        truncated.truncate(40);
        let facts = Facts { format: Format::Png, width: 64, height: 64 };
        let made = make_copies(&truncated, &facts, &[Copy { width: 32, format: Format::Webp }], &Images::default());
        assert!(made[0].is_err(), "a broken image is an error, not a crash");
        assert!(decode_facts(b"\x89PNG\r\n\x1a\nnot really").is_err());
    }
}

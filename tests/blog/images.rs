//! Images sized for the screen: the copies an export writes (widths, formats,
//! sizes, never wider than the image), the markup that offers them, the
//! cache that makes a second export free and a changed setting redo only
//! what it changes, the preview's same markup, and broken or huge images
//! named at their line while the rest of the blog is published.

use std::path::Path;

use image::{ImageEncoder, ImageFormat};

use crate::{BlogTest, files, read};

/// A JPEG photo stand-in of `width`×`height`: gradients and texture, as a
/// camera leaves them (so lossy copies have something to save).
pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        let wave = ((x as f32 / 7.0).sin() * (y as f32 / 5.0).cos() * 40.0) as i32;
        image::Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, (128 + wave).clamp(0, 255) as u8])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 92)
        .write_image(image.as_raw(), width, height, image::ExtendedColorType::Rgb8)
        .unwrap();
    out
}

/// A PNG diagram stand-in of `width`×`height`: flat colours and lines.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_fn(width, height, |x, y| {
        if (x / 40 + y / 40) % 2 == 0 { image::Rgba([255, 255, 255, 255]) } else { image::Rgba([219, 39, 119, 255]) }
    });
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(image.as_raw(), width, height, image::ExtendedColorType::Rgba8)
        .unwrap();
    out
}

const POST: &str = "---\ntitle: Photos\ndate: 2026-03-01\ntags: [photo]\n---\n\
![A wide photo](photo.jpg)\n\n\
Some words between the pictures.\n\n\
<img src=\"diagram.png\" alt=\"A raw diagram\">\n\n\
![A small icon](small.png)\n";

/// Widths a quarter of the defaults (480, 800, 1200, 1600), and images to
/// match, so the tests make their copies quickly.
const SETTINGS: &str = "title = \"Pictures\"\n[images]\nwidths = [160, 240, 320, 400]\n";

/// A blog with a bundle post showing a 600×300 JPEG, a 300×150 PNG in raw
/// HTML and a 100×60 PNG.
fn blog() -> BlogTest {
    BlogTest::empty()
        .write("hanji.toml", SETTINGS)
        .write("posts/photos/index.md", POST)
        .write("posts/photos/photo.jpg", jpeg(600, 300))
        .write("posts/photos/diagram.png", png(300, 150))
        .write("posts/photos/small.png", png(100, 60))
}

/// `hanji export` with a cache folder of the test's own.
fn export_with(blog: &BlogTest, out: &Path, cache: &Path) -> crate::Run {
    let out = out.to_str().unwrap();
    blog.hanji_with(&[("HANJI_CACHE_DIR", cache.to_str().unwrap())], &["export", "--quiet", "--out", out])
}

fn size_of(path: &Path) -> (ImageFormat, u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let format = image::guess_format(&bytes).unwrap();
    let image = image::load_from_memory(&bytes).unwrap();
    (format, image.width(), image.height())
}

#[test]
fn an_export_writes_smaller_copies_and_webp_never_wider_than_the_image() {
    let blog = blog();
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let run = export_with(&blog, out.path(), cache.path());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let folder = out.path().join("posts/photos");
    for width in [160, 240, 320, 400] {
        let height = width / 2;
        assert_eq!(size_of(&folder.join(format!("photo.jpg-{width}w.webp"))), (ImageFormat::WebP, width, height));
        assert_eq!(size_of(&folder.join(format!("photo.jpg-{width}w.jpg"))), (ImageFormat::Jpeg, width, height));
    }
    // The diagram's own width stands in for the widths above it: no copy is
    // wider than the image, and the PNG itself is its widest entry.
    assert_eq!(size_of(&folder.join("diagram.png-300w.webp")), (ImageFormat::WebP, 300, 150));
    assert_eq!(size_of(&folder.join("diagram.png-240w.png")), (ImageFormat::Png, 240, 120));
    // The small icon only gets a WebP of its own size.
    assert_eq!(size_of(&folder.join("small.png-100w.webp")), (ImageFormat::WebP, 100, 60));
    let written = files(&folder);
    for upscaled in ["photo.jpg-600w.webp", "diagram.png-320w.webp", "diagram.png-300w.png", "small.png-160w.webp"] {
        assert!(!written.iter().any(|f| f == upscaled), "{upscaled} in {written:?}");
    }
    assert_eq!(written.iter().filter(|f| f.starts_with("small.png-")).count(), 1, "{written:?}");
    // Smaller for a small screen: the narrowest WebP is a fraction of the photo.
    let original = std::fs::metadata(folder.join("photo.jpg")).unwrap().len();
    let phone = std::fs::metadata(folder.join("photo.jpg-160w.webp")).unwrap().len();
    assert!(phone * 5 < original, "160w WebP {phone} bytes against the photo's {original}");
    assert!(run.stderr().contains("14 copies of images made, 0 from the cache"), "{}", run.stderr());
}

#[test]
fn the_page_offers_the_copies_with_sizes_and_loads_the_first_screen_first() {
    let blog = blog();
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    export_with(&blog, out.path(), cache.path());
    let page = read(out.path().join("posts/photos/index.html"));
    let sizes = "sizes=\"(min-width: 51rem) 48rem, calc(100vw - 2rem)\"";
    let photo = "<picture><source type=\"image/webp\" srcset=\"../../posts/photos/photo.jpg-160w.webp 160w, \
                 ../../posts/photos/photo.jpg-240w.webp 240w, ../../posts/photos/photo.jpg-320w.webp 320w, \
                 ../../posts/photos/photo.jpg-400w.webp 400w\" ";
    assert!(page.contains(&format!("{photo}{sizes}>")), "{page}");
    // The first image, at the top, loads at once; it has its size, so
    // nothing below moves as it arrives.
    assert!(
        page.contains(
            "<img src=\"../../posts/photos/photo.jpg-400w.jpg\" srcset=\"../../posts/photos/photo.jpg-160w.jpg 160w,"
        ),
        "{page}"
    );
    assert!(
        page.contains(&format!(
            "{sizes} width=\"600\" height=\"300\" alt=\"A wide photo\" decoding=\"async\"></picture>"
        )),
        "{page}"
    );
    // Raw HTML gets the same, around the author's own tag.
    assert!(
        page.contains(
            "<picture><source type=\"image/webp\" srcset=\"../../posts/photos/diagram.png-160w.webp 160w, \
             ../../posts/photos/diagram.png-240w.webp 240w, ../../posts/photos/diagram.png-300w.webp 300w\""
        ),
        "{page}"
    );
    assert!(
        page.contains("../../posts/photos/diagram.png 300w\" ")
            && page.contains(" width=\"300\" height=\"150\" loading=\"lazy\" decoding=\"async\"></picture>"),
        "{page}"
    );
    // One size only: a WebP source and the PNG itself, lazily.
    assert!(
        page.contains(
            "<picture><source type=\"image/webp\" srcset=\"../../posts/photos/small.png-100w.webp 100w\" \
             sizes=\"(min-width: 51rem) 48rem, calc(100vw - 2rem)\"><img src=\"../../posts/photos/small.png\" \
             width=\"100\" height=\"60\" alt=\"A small icon\" loading=\"lazy\" decoding=\"async\"></picture>"
        ),
        "{page}"
    );
    // Every address the page offers is a file of the site.
    for candidate in page.split("srcset=\"").skip(1).flat_map(|rest| rest.split('"').next().unwrap().split(", ")) {
        let address = candidate.split(' ').next().unwrap().trim_start_matches("../../");
        assert!(out.path().join(address).is_file(), "{address} is offered but not written");
    }
}

#[test]
fn a_second_export_makes_nothing_and_a_changed_setting_redoes_only_what_it_changes() {
    let blog = blog();
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    export_with(&blog, out.path(), cache.path());
    let cached = files(&cache.path().join("images")).len();
    assert_eq!(cached, 14, "the cache keeps every copy");

    // Another output folder, the same cache: every copy comes from it.
    let other = tempfile::tempdir().unwrap();
    let again = export_with(&blog, other.path(), cache.path());
    assert!(again.stderr().contains("0 copies of images made, 14 from the cache"), "{}", again.stderr());
    for file in files(out.path()).iter().filter(|f| f.contains("w.")) {
        assert_eq!(std::fs::read(out.path().join(file)).unwrap(), std::fs::read(other.path().join(file)).unwrap());
    }
    // The same folder: nothing written at all.
    let same = export_with(&blog, out.path(), cache.path());
    assert!(same.stderr().contains(" 0 written,"), "{}", same.stderr());

    // A lower quality redoes the lossy copies (WebP, JPEG), not the PNGs.
    let blog = blog.write("hanji.toml", format!("{SETTINGS}quality = 60\n"));
    let lower = export_with(&blog, out.path(), cache.path());
    let png_copies = files(out.path()).iter().filter(|f| f.contains("w.png")).count();
    assert_eq!(png_copies, 2, "the diagram at 160 and 240; the icon has none");
    assert!(
        lower.stderr().contains(&format!("{} copies of images made, {png_copies} from the cache", 14 - png_copies)),
        "{}",
        lower.stderr()
    );
    // Another width makes only that width.
    let settings = "title = \"Pictures\"\n[images]\nquality = 60\nwidths = [160, 240, 320, 400, 200]\n";
    let wider = export_with(&blog.write("hanji.toml", settings), out.path(), cache.path());
    // 200: the photo's WebP and JPEG, the diagram's WebP and PNG.
    assert!(wider.stderr().contains("4 copies of images made, 14 from the cache"), "{}", wider.stderr());
    assert!(out.path().join("posts/photos/photo.jpg-200w.webp").is_file());
}

#[test]
fn a_broken_or_huge_image_is_named_at_its_line_and_shown_as_it_is() {
    let blog = blog()
        .write("posts/photos/broken.png", b"\x89PNG\r\n\x1a\nthis is not a picture at all")
        .write("posts/photos/index.md", format!("{POST}\n![Broken](broken.png)\n"));
    let check = blog.hanji(&["check"]);
    let (line, hint) = check.line_starting("posts/photos/index.md:14:1: warning: image `broken.png` cannot be read");
    assert!(line.contains("as an image"), "{line}");
    assert!(hint.contains("replace it"), "{hint}");
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let run = export_with(&blog, out.path(), cache.path());
    assert_eq!(run.code(), 0, "a warning, not a failure: {}", run.stderr());
    let page = read(out.path().join("posts/photos/index.html"));
    assert!(
        page.contains("<img src=\"../../posts/photos/broken.png\" alt=\"Broken\" loading=\"lazy\" decoding=\"async\">"),
        "{page}"
    );
    assert!(page.contains("photo.jpg-160w.webp"), "the other images are still sized");
    assert!(out.path().join("posts/photos/broken.png").is_file(), "copied as it is");

    // Over `max_megapixels`: named, and shown as it is.
    let huge = blog
        .write("hanji.toml", format!("{SETTINGS}max_megapixels = 1\n"))
        .write("posts/photos/photo.jpg", jpeg(1200, 1000));
    let check = huge.hanji(&["check"]);
    let (line, hint) = check.line_starting("posts/photos/index.md:6:1: warning: image `photo.jpg` is 1200×1000");
    assert!(line.contains("over `max_megapixels` (1)"), "{line}");
    assert!(hint.contains("max_megapixels"), "{hint}");
    let out = tempfile::tempdir().unwrap();
    export_with(&huge, out.path(), cache.path());
    let page = read(out.path().join("posts/photos/index.html"));
    assert!(
        page.contains("<img src=\"../../posts/photos/photo.jpg\" alt=\"A wide photo\" decoding=\"async\">"),
        "{page}"
    );
}

#[test]
fn a_cover_is_sized_too_and_is_the_first_thing_loaded() {
    let blog = blog().write(
        "posts/covered.md",
        "---\ntitle: Covered\ndate: 2026-03-02\ncover:\n  image: /images/wide.jpg\n  alt: A wide view\n---\n![Below it](/images/wide.jpg)\n",
    );
    let blog = blog.write("static/images/wide.jpg", jpeg(480, 270));
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    export_with(&blog, out.path(), cache.path());
    let page = read(out.path().join("posts/covered/index.html"));
    let cover = page.split("<div class=\"post-cover\">").nth(1).unwrap().split("</div>").next().unwrap();
    assert!(
        cover.starts_with("<picture><source type=\"image/webp\" srcset=\"../../images/wide.jpg-160w.webp 160w"),
        "{cover}"
    );
    assert!(
        cover.contains("width=\"480\" height=\"270\" alt=\"A wide view\" fetchpriority=\"high\" decoding=\"async\""),
        "{cover}"
    );
    // With the cover on the first screen, the post's own first image waits.
    let body = page.split("<div class=\"prose\">").nth(1).unwrap();
    assert!(body.contains("alt=\"Below it\" loading=\"lazy\""), "{body}");
    assert!(page.contains("<meta property=\"og:image\" content=\"/images/wide.jpg\">"), "Open Graph has the cover");
    // A cover that is not there is named at its line, by check and export.
    let gone = blog.write("posts/gone.md", "---\ntitle: Gone\ndate: 2026-03-03\ncover: missing.jpg\n---\nText.\n");
    let check = gone.hanji(&["check"]);
    let (line, _) = check.line_starting("posts/gone.md:4:1: warning: image `missing.jpg` leads nowhere");
    assert!(!line.is_empty());
    let out = tempfile::tempdir().unwrap();
    let run = export_with(&gone, out.path(), cache.path());
    assert!(run.stdout().contains("posts/gone.md:4:1: warning: image `missing.jpg` leads nowhere"), "{}", run.stdout());
}

#[test]
fn the_preview_shows_the_same_pictures_as_the_export() {
    let blog = blog();
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    export_with(&blog, out.path(), cache.path());
    let exported = read(out.path().join("posts/photos/index.html"));
    let loaded = blog.load();
    let theme = hanji::Theme::new(&loaded.templates).0;
    let catalog = hanji::ImageCatalog::new(blog.path(), &loaded.config.images, Some(cache.path()));
    let path = Path::new("posts/photos/index.md");
    let preview = hanji::post_preview(&loaded, &theme, Some(&catalog), path, POST);
    let pictures = |html: &str| -> Vec<String> {
        html.split("<picture>").skip(1).map(|rest| rest.split("</picture>").next().unwrap().to_string()).collect()
    };
    assert_eq!(pictures(&preview.html).len(), 3);
    assert_eq!(pictures(&preview.html), pictures(&exported), "the preview offers the copies the export writes");
}

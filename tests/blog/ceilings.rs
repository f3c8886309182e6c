//! Every kind of work a blog can ask for has a ceiling its settings cannot
//! lift (issue 30): an image's pixels, shortcodes that expand at every
//! level, a template that grows a string, a large static file, a burst of
//! image requests to `hanji serve`. Each test runs the real `hanji` under a
//! memory bound and holds that the blog over a ceiling gets its problem at
//! its file, and the rest of the site is still written.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::{BlogTest, Run};

/// The most a run here may take: far under what the work without its
/// ceiling would (gigabytes), far over what it takes with it.
const BOUND_KB: u64 = 1024 * 1024;

/// `hanji ARGS… .` on `blog` under /usr/bin/time: the run and its peak memory.
fn measured(blog: &BlogTest, args: &[&str]) -> (Run, u64) {
    let logs = tempfile::tempdir().unwrap();
    let rss = logs.path().join("rss");
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&rss)
        .arg(env!("CARGO_BIN_EXE_hanji"))
        .args(args)
        .arg(".")
        .current_dir(blog.path())
        .env("HANJI_CACHE_DIR", logs.path().join("cache"))
        .output()
        .unwrap();
    let report = fs::read_to_string(&rss).unwrap();
    assert!(!report.contains("signal"), "killed: {report}");
    let kb = report.lines().last().and_then(|l| l.trim().parse().ok()).expect("a peak memory figure");
    let run = Run(output);
    assert!(!run.stderr().contains("panicked"), "{}", run.stderr());
    (run, kb)
}

fn post(title: &str, body: &str) -> String {
    format!("---\ntitle: {title}\ndate: 2026-07-10\n---\n\n{body}\n")
}

/// A PNG whose header says `width` × `height`, with almost no pixels in it:
/// what a decoder would allocate for comes from the header.
fn claimed_png(width: u32, height: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        let crc = crc32(&out[start..]);
        out.extend(crc.to_be_bytes());
    }
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &header);
    // A zlib stream of a few zero bytes.
    chunk(&mut png, b"IDAT", &[0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]);
    chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn an_image_claiming_billions_of_pixels_is_not_decoded_whatever_the_settings_say() {
    let blog = BlogTest::empty()
        .write("hanji.toml", "title = \"Huge\"\n[images]\nmax_megapixels = 4000000000\n")
        .write("posts/a/index.md", post("Huge", "![huge](huge.png)"))
        .write("posts/a/huge.png", claimed_png(50_000, 50_000))
        .write("posts/b.md", post("Plain", "Plain text."));
    let out = tempfile::tempdir().unwrap();
    let (run, kb) = measured(&blog, &["export", "--quiet", "--out", out.path().join("site").to_str().unwrap()]);
    assert!(kb < BOUND_KB / 2, "peaked at {kb} KB");
    assert_eq!(run.code(), 0, "a warning, not an error: {}", run.stderr());
    let (line, hint) = run.line_starting("posts/a/index.md:");
    assert!(line.contains("over the most Hanji decodes (100)"), "{line}");
    assert!(hint.contains("save it smaller"), "{hint}");
    assert!(out.path().join("site/posts/a/index.html").exists() && out.path().join("site/posts/b/index.html").exists());
}

#[test]
fn shortcodes_that_repeat_at_every_level_stop_at_their_ceiling() {
    // Eight copies of its inner text, ten shortcodes nested: 8^10 times the
    // text without a ceiling.
    let inner = "{{ .Inner | markdownify }}".repeat(8);
    let mut body: String = (0..10).map(|n| format!("{{{{< s{n} >}}}}\n")).collect();
    body.push_str(&"All work and no play. ".repeat(50));
    body.extend((0..10).rev().map(|n| format!("\n{{{{< /s{n} >}}}}")));
    let mut blog = BlogTest::empty().write("hugo.toml", "title = \"Nest\"\nbaseURL = \"https://n.example/\"\n");
    for n in 0..10 {
        blog = blog.write(&format!("layouts/shortcodes/s{n}.html"), &inner);
    }
    let blog = blog
        .write("content/posts/nest.md", post("Nest", &body))
        .write("content/posts/plain.md", post("Plain", "Plain text."));
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (run, kb) = measured(&blog, &["export", "--quiet", "--out", out.path().join("site").to_str().unwrap()]);
    assert!(kb < BOUND_KB, "peaked at {kb} KB");
    assert!(started.elapsed() < Duration::from_secs(120), "took {:?}", started.elapsed());
    let (line, hint) = run.line_starting("content/posts/nest.md:");
    assert!(line.contains("hand back more than 8 MB of Markdown to render"), "{line}");
    assert!(hint.contains("nest it less"), "{hint}");
    let plain = out.path().join("site/posts/plain/index.html");
    assert!(plain.exists(), "the rest of the site is written: {}", run.stderr());
    let page = fs::metadata(out.path().join("site/posts/nest/index.html")).map(|m| m.len()).unwrap_or(0);
    assert!(page < 64 << 20, "the page stays within the ceiling: {page} bytes");
}

#[test]
fn a_template_that_grows_a_string_stops_at_its_fuel() {
    let grow = "{% set ns = namespace(s=\"xxxxxxxx\") %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}\
                {% endfor %}{{ ns.s | length }}";
    let blog = BlogTest::empty()
        .write("hanji.toml", "title = \"Grow\"\n")
        .write("templates/post.html", grow)
        .write("posts/a.md", post("A", "Text."));
    let out = tempfile::tempdir().unwrap();
    let (run, kb) = measured(&blog, &["export", "--quiet", "--out", out.path().join("site").to_str().unwrap()]);
    assert!(kb < BOUND_KB, "peaked at {kb} KB");
    assert_eq!(run.code(), 1, "{}", run.stderr());
    let (line, _) = run.line_starting("templates/post.html:");
    assert!(line.contains("made too much text"), "{line}");
    assert!(out.path().join("site/index.html").exists(), "the other pages are written");
}

#[test]
fn a_large_static_file_is_copied_without_being_held() {
    let blog = BlogTest::empty().write("hanji.toml", "title = \"Big\"\n").write("posts/a.md", post("A", "Text."));
    fs::create_dir_all(blog.path().join("static")).unwrap();
    // 400 MB, sparse: read as zeros.
    let big = fs::File::create(blog.path().join("static/big.bin")).unwrap();
    big.set_len(400 << 20).unwrap();
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let (run, kb) = measured(&blog, &["export", "--quiet", "--out", site.to_str().unwrap()]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(kb < 200 * 1024, "a 400 MB file copied in a process of {kb} KB: streamed");
    assert_eq!(fs::metadata(site.join("big.bin")).unwrap().len(), 400 << 20);
    // Again, unchanged: compared as it streams, not read whole either.
    fs::write(blog.path().join("posts/a.md"), post("A", "Other text.")).unwrap();
    let (run, kb) = measured(&blog, &["export", "--quiet", "--out", site.to_str().unwrap()]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(kb < 200 * 1024, "{kb} KB");
}

/// The peak memory of a process so far (`VmHWM`), in KB.
fn peak_kb(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn gradient_png(path: &Path, size: u32) {
    let pixels = image::RgbImage::from_fn(size, size, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 120]));
    pixels.save(path).unwrap();
}

#[test]
fn a_burst_of_image_requests_to_the_preview_is_rendered_a_core_at_a_time() {
    let mut blog = BlogTest::empty().write("hanji.toml", "title = \"Burst\"\n[images]\nwidths = [800]\n");
    let mut body = String::new();
    for n in 0..8 {
        body.push_str(&format!("![p{n}](p{n}.png)\n\n"));
    }
    blog = blog.write("posts/a/index.md", post("Burst", &body));
    for n in 0..8 {
        gradient_png(&blog.path().join(format!("posts/a/p{n}.png")), 2400);
    }
    let server = crate::serve::Serving::start(&blog, &["--port", "0"]);
    let url = server.url.clone();
    let before = peak_kb(server.pid());
    let fetches: Vec<_> = (0..8)
        .map(|n| {
            let address = format!("{url}posts/a/p{n}.png-800w.webp");
            std::thread::spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
                agent.get(&address).call().map(|r| r.status().as_u16()).unwrap_or(0)
            })
        })
        .collect();
    let statuses: Vec<u16> = fetches.into_iter().map(|f| f.join().unwrap()).collect();
    let peak = peak_kb(server.pid());
    drop(server);
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    // Eight 2400×2400 images decoded at once would take 8 × 17 MB of pixels
    // and as much again for their copies' work; a core's worth at a time,
    // a quarter of it (two cores here).
    assert!(peak - before < 150 * 1024, "the burst added {} KB", peak - before);
}

#[test]
fn a_large_static_file_is_served_a_piece_at_a_time() {
    let blog = BlogTest::empty().write("hanji.toml", "title = \"Big\"\n").write("posts/a.md", post("A", "Text."));
    fs::create_dir_all(blog.path().join("static")).unwrap();
    fs::File::create(blog.path().join("static/big.bin")).unwrap().set_len(300 << 20).unwrap();
    let server = crate::serve::Serving::start(&blog, &["--port", "0"]);
    let url = server.url.clone();
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut response = agent.get(format!("{url}big.bin")).call().unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut received = 0u64;
    let mut reader = response.body_mut().as_reader();
    let mut buffer = vec![0; 1 << 16];
    loop {
        let n = std::io::Read::read(&mut reader, &mut buffer).unwrap();
        if n == 0 {
            break;
        }
        received += n as u64;
    }
    let peak = peak_kb(server.pid());
    drop(server);
    assert_eq!(received, 300 << 20);
    assert!(peak < 200 * 1024, "a 300 MB file sent by a process of {peak} KB at its peak");
}

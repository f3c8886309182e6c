//! `hanji serve`: the real command on a temp blog, fetched over HTTP, and a
//! page open in headless Chromium that reloads by itself.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::browser::Browser;

use crate::{BlogTest, export, files, read, visible_text};

const DEADLINE: Duration = Duration::from_secs(30);

fn post(title: &str, date: &str, tags: &str, body: &str) -> String {
    format!("---\ntitle: {title}\ndate: {date}\ntags: [{tags}]\n---\n{body}\n")
}

fn blog() -> BlogTest {
    BlogTest::empty()
        .write("hanji.toml", "title = \"Served\"\n")
        .write("posts/a.md", post("Alpha", "2026-07-17", "nccl, cuda", "Alpha body."))
        .write("posts/b.md", post("Beta", "2026-05-16", "nccl", "Beta body."))
        .write("posts/c/index.md", post("Gamma", "2026-06-01", "rust", "Gamma ![d](diagram.png)"))
        .write("posts/c/diagram.png", b"\x89PNG\r\n")
        .write("posts/secret.md", "---\ntitle: Secret draft\ndate: 2026-08-01\ndraft: true\ntags: [nccl]\n---\nSoon.\n")
}

/// `hanji serve` running on a blog; killed when dropped, whatever happened.
pub struct Serving {
    child: Child,
    pub url: String,
    stderr: mpsc::Receiver<String>,
}

impl Serving {
    /// `hanji serve BLOG ARGS…`, with the test's own cache folder.
    pub fn start(blog: &BlogTest, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hanji"))
            .arg("serve")
            .arg(blog.path())
            .args(args)
            .env("HANJI_CACHE_DIR", blog.cache_dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim().rsplit(' ').next().unwrap().to_string();
        assert!(line.starts_with("Serving ") && url.starts_with("http://127.0.0.1:"), "printed: {line:?}");
        let (send, stderr) = mpsc::channel();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            let mut line = String::new();
            while err.read_line(&mut line).is_ok_and(|n| n > 0) {
                let _ = send.send(std::mem::take(&mut line));
            }
        });
        Serving { child, url, stderr }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn get(&self, path: &str) -> (u16, String) {
        let (status, bytes, _) = self.get_bytes(path);
        (status, String::from_utf8(bytes).unwrap())
    }

    /// Status, body and content type.
    fn get_bytes(&self, path: &str) -> (u16, Vec<u8>, String) {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut response = agent.get(format!("{}{path}", self.url)).call().unwrap();
        let kind = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        (response.status().as_u16(), response.body_mut().read_to_vec().unwrap(), kind)
    }

    /// Fetches `path` until `wanted` accepts its text.
    fn wait_for(&self, path: &str, what: &str, wanted: impl Fn(u16, &str) -> bool) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let (status, text) = self.get(path);
            if wanted(status, &text) {
                return text;
            }
            assert!(Instant::now() < deadline, "{path} never showed {what}; last ({status}):\n{}", visible_text(&text));
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn count(page: &str, tag: &str) -> Option<String> {
    let text = visible_text(page);
    let at = text.find(&format!("{tag} ("))?;
    Some(text[at..].split(')').next()?.to_string() + ")")
}

#[test]
fn a_tag_page_follows_the_tags_on_disk() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0"]);
    let (status, page) = server.get("tags/nccl/");
    assert_eq!(status, 200);
    assert_eq!(count(&page, "nccl").as_deref(), Some("nccl (2)"), "{}", visible_text(&page));
    // Links end in index.html (for file://); the server knows them too.
    assert_eq!(server.get("tags/nccl/index.html").0, 200);

    std::fs::write(blog.path().join("posts/b.md"), post("Beta", "2026-05-16", "cuda, zig", "Beta body.")).unwrap();
    let page = server.wait_for("tags/nccl/", "nccl (1)", |_, page| count(page, "nccl").as_deref() == Some("nccl (1)"));
    assert_eq!(count(&page, "cuda").as_deref(), Some("cuda (2)"));
    assert_eq!(count(&page, "zig").as_deref(), Some("zig (1)"));
    server.wait_for("tags/zig/", "the new tag's page", |status, page| status == 200 && page.contains("Beta"));
}

#[test]
fn pages_files_and_what_is_not_there() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0"]);
    let (status, home) = server.get("");
    assert_eq!(status, 200);
    assert!(home.contains("Alpha") && !home.contains("Secret draft"));
    assert!(home.contains("/__hanji/events"), "served pages reload themselves");
    let image = server.get_bytes("posts/c/diagram.png");
    assert_eq!(image, (200, b"\x89PNG\r\n".to_vec(), "image/png".to_string()));
    let (status, feed) = server.get("feed.xml");
    assert!(status == 200 && feed.starts_with("<?xml") && !feed.contains("__hanji"), "no script in feeds");
    let (status, missing) = server.get("posts/nope/");
    assert_eq!(status, 404);
    assert!(missing.contains("__hanji/events"), "a 404 reloads too, when the page appears");
    assert_eq!(server.get("posts/secret/").0, 404, "drafts only with --drafts");
}

#[test]
fn drafts_are_shown_with_the_flag() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0", "--drafts"]);
    let (status, page) = server.get("posts/secret/");
    assert_eq!(status, 200);
    assert!(page.contains("Secret draft"));
    assert_eq!(count(&server.get("tags/nccl/").1, "nccl").as_deref(), Some("nccl (3)"));
}

#[test]
fn a_broken_post_shows_its_error_and_the_server_stays_up() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0"]);
    std::fs::write(blog.path().join("posts/b.md"), "---\ntitle: [unclosed\n---\nBody\n").unwrap();
    let page = server.wait_for("posts/b/", "the error", |status, _| status == 500);
    let text = visible_text(&page);
    assert!(text.contains("posts/b.md has errors"), "{text}");
    assert!(text.contains("posts/b.md:2:"), "file and line: {text}");
    assert!(page.contains("__hanji/events"), "it reloads when fixed");
    assert_eq!(server.get("").0, 200, "the rest of the site is served");
    // A post with an error in its fields (a bad date) too.
    std::fs::write(blog.path().join("posts/b.md"), post("Beta", "2026-05-99", "nccl", "Beta body.")).unwrap();
    server.wait_for("posts/b/", "the date error", |status, page| status == 500 && page.contains("date"));
    std::fs::write(blog.path().join("posts/b.md"), post("Beta", "2026-05-16", "nccl", "Beta body.")).unwrap();
    server.wait_for("posts/b/", "the fixed post", |status, page| status == 200 && page.contains("Beta body."));
}

#[test]
fn a_stale_page_is_told_to_reload() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0"]);
    let (_, page) = server.get("posts/b/");
    let version = page.split("version=").nth(1).unwrap().split('&').next().unwrap().to_string();
    let agent: ureq::Agent = ureq::Agent::config_builder().build().into();
    let events = format!("{}__hanji/events?version={version}&path=posts%2Fb%2F", server.url);
    let response = agent.get(events).call().unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let (send, received) = mpsc::channel();
    let mut body = response.into_body().into_reader();
    std::thread::spawn(move || {
        let mut buffer = [0; 256];
        while let Ok(n) = body.read(&mut buffer) {
            if n == 0 || send.send(String::from_utf8_lossy(&buffer[..n]).into_owned()).is_err() {
                break;
            }
        }
    });
    // Another post changing is not this page's business…
    std::fs::write(blog.path().join("posts/a.md"), post("Alpha", "2026-07-17", "nccl, cuda", "Other text.")).unwrap();
    server.wait_for("posts/a/", "the other change", |_, page| page.contains("Other text."));
    let said: String = received.try_iter().collect();
    assert!(!said.contains("data: reload"), "reloaded for another post's change: {said}");
    // …this one's is.
    std::fs::write(blog.path().join("posts/b.md"), post("Beta", "2026-05-16", "nccl", "New text.")).unwrap();
    let mut seen = String::new();
    while !seen.contains("data: reload") {
        seen.push_str(&received.recv_timeout(DEADLINE).expect("no reload message"));
    }
}

/// The search index's files of a cold export of `blog`, by name under `search/`.
fn exported_index(blog: &BlogTest) -> Vec<(String, String)> {
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(blog, out.path(), &[]).code(), 0);
    let index = out.path().join("search");
    files(&index).into_iter().filter(|f| f != "index.html").map(|f| (f.clone(), read(index.join(&f)))).collect()
}

#[test]
fn the_served_index_follows_the_folder_as_an_export_makes_it() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0"]);
    let serves = |index: &[(String, String)]| {
        for (name, text) in index {
            assert_eq!(&server.get(&format!("search/{name}")), &(200, text.clone()), "{name}");
        }
    };
    let before = exported_index(&blog);
    serves(&before);
    // An edited post, a new one among the older ones, and one gone: the
    // served index is updated to the one a cold export makes.
    std::fs::write(blog.path().join("posts/b.md"), post("Beta", "2026-05-16", "nccl", "Zymurgy and 분산 학습."))
        .unwrap();
    std::fs::write(blog.path().join("posts/d.md"), post("Delta", "2026-01-02", "cuda", "Quokka text.")).unwrap();
    std::fs::remove_file(blog.path().join("posts/a.md")).unwrap();
    server.wait_for("posts/b/", "the edit", |_, page| page.contains("Zymurgy"));
    server.wait_for("posts/d/", "the new post", |status, _| status == 200);
    server.wait_for("posts/a/", "the post gone", |status, _| status == 404);
    let after = exported_index(&blog);
    assert_ne!(after, before);
    assert!(after.iter().any(|(_, text)| text.contains("zymurgy")), "{after:?}");
    serves(&after);
    for (name, _) in before.iter().filter(|(name, _)| !after.iter().any(|(n, _)| n == name)) {
        assert_eq!(server.get(&format!("search/{name}")).0, 404, "{name} is no longer in the index");
    }
}

#[test]
fn a_taken_port_moves_to_the_next_free_one() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let blog = blog();
    let server = Serving::start(&blog, &["--port", &port.to_string()]);
    assert!(!server.url.ends_with(&format!(":{port}/")), "{}", server.url);
    assert_eq!(server.get("").0, 200);
}

#[test]
fn ctrl_c_stops_it_cleanly() {
    let blog = blog();
    let mut server = Serving::start(&blog, &["--port", "0"]);
    // An open live-reload stream must not keep the server from stopping.
    let agent: ureq::Agent = ureq::Agent::config_builder().build().into();
    let _stream = agent.get(format!("{}__hanji/events?version=0&path=", server.url)).call().unwrap();
    let status = Command::new("kill").args(["-INT", &server.child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let deadline = Instant::now() + DEADLINE;
    let exit = loop {
        if let Some(exit) = server.child.try_wait().unwrap() {
            break exit;
        }
        assert!(Instant::now() < deadline, "still running after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    let said: String = server.stderr.try_iter().collect();
    assert!(said.contains("stopped"), "{said}");
}

#[test]
fn a_missing_folder_is_an_error() {
    let run =
        Command::new(env!("CARGO_BIN_EXE_hanji")).args(["serve", "/nonexistent/blog", "--port", "0"]).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("no blog folder at `/nonexistent/blog`"), "{stderr}");
}

#[test]
fn a_page_open_in_chromium_reloads_by_itself() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0"]);
    let browser = Browser::start();
    browser.session("url", json!({"url": format!("{}posts/b/", server.url)})).unwrap();
    let title = browser.script("window.__marker = 1; return document.title;").unwrap();
    assert!(title.as_str().is_some_and(|t| t.contains("Beta")), "{title}");

    std::fs::write(blog.path().join("posts/b.md"), post("Beta", "2026-05-16", "nccl", "Changed on disk.")).unwrap();
    let deadline = Instant::now() + DEADLINE;
    loop {
        // While the page reloads, a script may fail: ask again.
        let state = browser.script("return [window.__marker === undefined, document.body.innerText];");
        if let Ok(state) = &state
            && state[0] == json!(true)
            && state[1].as_str().is_some_and(|t| t.contains("Changed on disk."))
        {
            break;
        }
        assert!(Instant::now() < deadline, "the page did not reload by itself: {state:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_served_page_offers_image_copies_made_when_asked_for_and_no_services() {
    let mut photo = Vec::new();
    let pixels = image::RgbImage::from_fn(600, 300, |x, y| image::Rgb([(x % 255) as u8, (y % 255) as u8, 90]));
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut photo),
        pixels.as_raw(),
        600,
        300,
        image::ExtendedColorType::Rgb8,
    )
    .unwrap();
    let blog = blog()
        .write("posts/c/photo.png", photo)
        .write("posts/c/index.md", post("Gamma", "2026-06-01", "rust", "Gamma ![a photo](photo.png)"))
        .write(
            "hanji.toml",
            "title = \"Served\"\n[images]\nwidths = [200, 400]\n[analytics]\nprovider = \"plausible\"\ndomain = \"x.org\"\n",
        );
    let server = Serving::start(&blog, &["--port", "0"]);
    let (status, page) = server.get("posts/c/");
    assert_eq!(status, 200);
    assert!(
        page.contains("srcset=\"../../posts/c/photo.png-200w.webp 200w, ../../posts/c/photo.png-400w.webp 400w"),
        "{page}"
    );
    assert!(!page.contains("plausible"), "analytics are for the exported site's readers, not the author's preview");
    let (status, webp, kind) = server.get_bytes("posts/c/photo.png-200w.webp");
    assert_eq!((status, kind.as_str()), (200, "image/webp"));
    let made = image::load_from_memory(&webp).unwrap();
    assert_eq!((made.width(), made.height()), (200, 100));
    assert_eq!(server.get_bytes("posts/c/photo.png-300w.webp").0, 404, "a width the page does not offer");
}

/// A raw HTTP/1.1 GET of `path` with these headers: its status line and
/// headers, lowercased names (the test sets `Host` itself, which a client
/// library would not let it).
fn raw_get(server: &Serving, path: &str, headers: &[(&str, &str)]) -> (u16, Vec<(String, String)>) {
    use std::io::Write;
    let address = server.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut head = String::new();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap() > 0 && line != "\r\n" {
        head.push_str(&line);
        line.clear();
    }
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    (status, headers)
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

#[test]
fn only_this_servers_names_are_answered_with_security_headers() {
    let blog = blog();
    let server = Serving::start(&blog, &["--port", "0", "--drafts"]);
    let own = server.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let port = own.rsplit(':').next().unwrap().to_string();
    // A page of another site whose name now leads here (DNS rebinding) reads nothing, drafts least of all.
    for host in [format!("evil.example:{port}"), format!("127.0.0.1.nip.io:{port}"), "localhost:1".to_string()] {
        let (status, _) = raw_get(&server, "/posts/secret/", &[("Host", &host)]);
        assert_eq!(status, 421, "Host {host}");
    }
    let (status, headers) = raw_get(&server, "/posts/secret/", &[("Host", &format!("localhost:{port}"))]);
    assert_eq!(status, 200);
    let csp = header(&headers, "content-security-policy").unwrap();
    assert!(csp.contains("script-src 'self' 'nonce-"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    assert_eq!(header(&headers, "referrer-policy"), Some("no-referrer"));
    // The page's live-reload script carries the nonce its CSP names.
    let (_, page) = server.get("posts/secret/");
    assert!(page.contains("<script nonce=\""), "only the server's own script runs");
    // The live-reload stream answers this server's pages only.
    let events = "/__hanji/events?version=0&path=posts%2Fa%2F";
    let (status, _) = raw_get(&server, events, &[("Host", &own), ("Origin", "http://evil.example")]);
    assert_eq!(status, 403);
    let (status, headers) = raw_get(&server, events, &[("Host", &own), ("Origin", &format!("http://{own}"))]);
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("text/event-stream"));
}

#[test]
fn listening_beyond_this_machine_is_said_loudly() {
    let blog = blog();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hanji"))
        .arg("serve")
        .arg(blog.path())
        .args(["--port", "0", "--bind", "0.0.0.0", "--drafts"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let deadline = Instant::now() + DEADLINE;
    while !line.starts_with("WARNING") && Instant::now() < deadline {
        line.clear();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("WARNING: listening on 0.0.0.0, beyond this machine"), "{line:?}");
    assert!(line.contains("drafts included") && line.contains("--bind 127.0.0.1"), "{line:?}");
}

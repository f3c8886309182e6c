//! Images a WordPress or Medium export links to but does not hold are
//! downloaded into each post's bundle, from a real HTTP server on 127.0.0.1
//! that the test starts and stops: a 404, an image too large, a redirect to
//! a local file, names that try to leave the bundle; each failure keeps its
//! link and is named in the report, and `--offline` asks for nothing.

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::Run;

/// An HTTP server on 127.0.0.1 that serves the test's images (see `answer`)
/// and counts what it was asked for; stopped when dropped.
pub(super) struct ImageServer {
    pub address: String,
    asked: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ImageServer {
    pub fn start() -> ImageServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = format!("http://{}", listener.local_addr().unwrap());
        let asked = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (asked_here, stop_here) = (asked.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_here.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let asked = asked_here.clone();
                std::thread::spawn(move || serve(stream, &asked));
            }
        });
        ImageServer { address, asked, stop, thread: Some(thread) }
    }

    /// How many times `path` was asked for.
    pub fn asked(&self, path: &str) -> usize {
        self.asked.lock().unwrap().iter().filter(|p| *p == path).count()
    }

    pub fn asked_at_all(&self) -> usize {
        self.asked.lock().unwrap().len()
    }
}

impl Drop for ImageServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // The listener waits in accept: a connection wakes it to see `stop`.
        let _ = TcpStream::connect(self.address.trim_start_matches("http://"));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(mut stream: TcpStream, asked: &Mutex<Vec<String>>) {
    let mut request = Vec::new();
    let mut buffer = [0; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buffer[..n]),
        }
    }
    let head = String::from_utf8_lossy(&request).into_owned();
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    asked.lock().unwrap().push(path.clone());
    let (status, extra, body): (&str, String, Vec<u8>) = match path.rsplit('/').next().unwrap_or("") {
        "gone.png" => ("404 Not Found", String::new(), b"not here".to_vec()),
        // Says it is larger than any image an import takes.
        "huge.png" => {
            let head =
                "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: 40000000\r\nconnection: close\r\n\r\n";
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&[0; 1024]);
            return;
        }
        // No length given, and more bytes than an import takes.
        "endless.png" => {
            let head = "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\nconnection: close\r\n\r\n";
            let _ = stream.write_all(head.as_bytes());
            let chunk = vec![7; 1 << 20];
            for _ in 0..40 {
                if stream.write_all(&chunk).is_err() {
                    return;
                }
            }
            return;
        }
        "to-a-file.png" => ("302 Found", "location: file:///etc/passwd\r\n".into(), Vec::new()),
        "moved.png" => ("301 Moved Permanently", "location: /img/moved-here.png\r\n".into(), Vec::new()),
        _ => ("200 OK", "content-type: image/png\r\n".into(), format!("PNG of {path}").into_bytes()),
    };
    let head = format!("HTTP/1.1 {status}\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n", body.len());
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

/// A WXR file of one post and one page whose images are on `site`
/// (uploads and others), the post's featured image one of them.
pub(super) fn wxr(site: &str, post_body: &str) -> String {
    let item = |id: u32, kind: &str, name: &str, title: &str, content: &str, extra: &str| {
        format!(
            "<item><title>{title}</title><link>{site}/{name}/</link><dc:creator>ann</dc:creator>\
             <content:encoded><![CDATA[{content}]]></content:encoded><wp:post_id>{id}</wp:post_id>\
             <wp:post_date>2020-01-02 10:00:00</wp:post_date><wp:post_date_gmt>2020-01-02 01:00:00</wp:post_date_gmt>\
             <wp:post_name>{name}</wp:post_name><wp:status>publish</wp:status><wp:post_type>{kind}</wp:post_type>\
             <wp:post_parent>0</wp:post_parent>{extra}</item>\n"
        )
    };
    let cover = format!("<wp:attachment_url>{site}/wp-content/uploads/2020/01/cover.jpg</wp:attachment_url>");
    let featured =
        "<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>9</wp:meta_value></wp:postmeta>";
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" \
         xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:wp=\"http://wordpress.org/export/1.2/\">\n<channel>\
         <title>Old</title><link>{site}</link><language>en</language><wp:wxr_version>1.2</wp:wxr_version>\n{}{}{}</channel></rss>\n",
        item(9, "attachment", "cover", "Cover", "", &cover),
        item(1, "post", "hello", "Hello", post_body, featured),
        item(2, "page", "about", "About", &format!("<p><img src=\"{site}/img/team.png\" alt=\"team\"></p>"), ""),
    )
}

fn hanji(args: &[&str], dir: &Path) -> Run {
    Run(Command::new(env!("CARGO_BIN_EXE_hanji")).args(args).current_dir(dir).output().unwrap())
}

/// Every file under `dir`, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    super::files(dir).into_iter().map(|f| (f.clone(), fs::read(dir.join(&f)).unwrap())).collect()
}

#[test]
fn images_of_a_wordpress_export_are_downloaded_into_the_bundle_and_failures_named() {
    let server = ImageServer::start();
    let site = &server.address;
    let body = format!(
        "<p><img src=\"{site}/img/photo.png\" alt=\"photo\"> and again <img src=\"{site}/img/photo.png\" alt=\"again\"></p>\
         <p><img src=\"{site}/wp-content/uploads/2020/01/chart.png?w=300\" alt=\"chart\"></p>\
         <p><img src=\"{site}/img/gone.png\" alt=\"gone\"></p>\
         <p><img src=\"{site}/img/huge.png\" alt=\"huge\"> <img src=\"{site}/img/endless.png\" alt=\"endless\"></p>\
         <p><img src=\"{site}/img/to-a-file.png\" alt=\"file\"> <img src=\"file:///etc/hostname\" alt=\"local\"></p>\
         <p><img src=\"{site}/img/moved.png\" alt=\"moved\"></p>\
         <p><img src=\"{site}/img/..%2F..%2F..%2Fescaped.png\" alt=\"escape\"> <img src=\"{site}/img/%2E%2E\" alt=\"dots\"></p>\
         <p><img src=\"{site}/a/same.png\" alt=\"one\"> <img src=\"{site}/b/same.png\" alt=\"two\"></p>"
    );
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("old.xml"), wxr(site, &body)).unwrap();
    let run = hanji(&["import", "old.xml", "--into", "blog"], dir.path());
    assert_eq!(run.code(), 0, "{}\n{}", run.stdout(), run.stderr());
    let root = dir.path().join("blog");
    let files = tree(&root.join("posts/hello"));
    let text = String::from_utf8(files["index.md"].clone()).unwrap();
    // Downloaded and linked beside the post: an image elsewhere, an upload without --uploads, the featured image.
    for (name, bytes) in [
        ("photo.png", "PNG of /img/photo.png"),
        ("chart.png", "PNG of /wp-content/uploads/2020/01/chart.png?w=300"),
        ("cover.jpg", "PNG of /wp-content/uploads/2020/01/cover.jpg"),
        ("moved.png", "PNG of /img/moved-here.png"),
        // Two images of one name: two files, each with its extension.
        ("same.png", "PNG of /a/same.png"),
        ("same-2.png", "PNG of /b/same.png"),
        // A name that tries to leave the bundle is only its last part; one of dots is `image`.
        ("escaped.png", "PNG of /img/..%2F..%2F..%2Fescaped.png"),
        // (`%2E%2E` is `..` to the URL standard: the server is asked for `/`.)
        ("image", "PNG of /"),
    ] {
        assert_eq!(files.get(name).map(Vec::as_slice), Some(bytes.as_bytes()), "{name} in {:?}", files.keys());
    }
    assert!(text.contains("![photo](photo.png)") && text.contains("![again](photo.png)"), "{text}");
    assert!(text.contains("![chart](chart.png)") && text.contains("cover: cover.jpg"), "{text}");
    assert_eq!(server.asked("/img/photo.png"), 1, "an image shown twice is asked for once");
    assert!(text.contains("![one](same.png)") && text.contains("![two](same-2.png)"), "{text}");
    assert!(text.contains("![escape](escaped.png)") && text.contains("![dots](image)"), "{text}");
    let outside: Vec<String> = super::files(dir.path()).into_iter().filter(|f| !f.starts_with("blog/posts/")).collect();
    assert_eq!(outside.iter().filter(|f| f.contains("escaped")).count(), 0, "{outside:?}");
    // What could not be had keeps its link and is named.
    let out = run.stdout();
    for (url, why) in [
        ("gone.png", "the server answered 404 Not Found"),
        ("huge.png", "larger than 32 MB"),
        ("endless.png", "larger than 32 MB"),
        ("to-a-file.png", "a redirect to a `file:` address, not the web"),
    ] {
        let url = format!("{site}/img/{url}");
        assert!(text.contains(&format!("]({url})")), "{url} keeps its link:\n{text}");
        assert!(
            out.contains(&format!("item 1 \"Hello\" ({site}/hello/): the image {url} could not be downloaded ({why}")),
            "{url}: {out}"
        );
    }
    // A local file is never read, nor named as a download.
    assert!(text.contains("](file:///etc/hostname)"), "{text}");
    assert!(!files.keys().any(|f| f.contains("hostname")), "{:?}", files.keys());
    // A page's image goes where a page's files go.
    assert_eq!(fs::read(root.join("static/images/about/team.png")).unwrap(), b"PNG of /img/team.png");
    assert!(fs::read_to_string(root.join("pages/about.md")).unwrap().contains("![team](/images/about/team.png)"));
    assert!(out.contains("imported from WordPress: "), "{out}");
    drop(server);
}

#[test]
fn an_offline_import_asks_the_network_for_nothing_and_says_what_stays() {
    let server = ImageServer::start();
    let site = &server.address;
    let dir = tempfile::tempdir().unwrap();
    let body = format!("<p><img src=\"{site}/wp-content/uploads/2020/01/chart.png\" alt=\"chart\"></p>");
    fs::write(dir.path().join("old.xml"), wxr(site, &body)).unwrap();
    let run = hanji(&["import", "old.xml", "--into", "blog", "--offline"], dir.path());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(server.asked_at_all(), 0, "nothing was asked for");
    let text = fs::read_to_string(dir.path().join("blog/posts/hello/index.md")).unwrap();
    assert!(text.contains(&format!("]({site}/wp-content/uploads/2020/01/chart.png)")), "{text}");
    assert!(run.stdout().contains("file(s) stay on the old site"), "{}", run.stdout());
}

#[test]
fn images_of_a_medium_export_are_downloaded_from_medium() {
    let server = ImageServer::start();
    let site = &server.address;
    let story = super::import::medium_story(
        "Pictures",
        &format!(
            "<figure><img class=\"graf-image\" src=\"{site}/max/800/1*4E0B.jpeg\"><figcaption>A harbour</figcaption></figure>\
             <p><img src=\"{site}/img/gone.png\"></p>"
        ),
        "https://medium.com/@kikoso/pictures-3bdf72da6e52",
    );
    let dir = tempfile::tempdir().unwrap();
    let zip = super::import::zip_of(&[("posts/2021-03-07_Pictures-3bdf72da6e52.html", story.as_bytes())]);
    fs::write(dir.path().join("medium.zip"), zip).unwrap();
    let run = hanji(&["import", "medium.zip", "--into", "blog"], dir.path());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let bundle = dir.path().join("blog/posts/pictures");
    assert_eq!(fs::read(bundle.join("1_4E0B.jpeg")).unwrap(), b"PNG of /max/800/1*4E0B.jpeg");
    let text = fs::read_to_string(bundle.join("index.md")).unwrap();
    assert!(text.contains("src=\"1_4E0B.jpeg\""), "the captioned image, linked beside the post:\n{text}");
    assert!(!text.contains(&format!("{site}/max/800")), "{text}");
    assert!(text.contains(&format!("{site}/img/gone.png")), "{text}");
    assert!(
        run.stdout()
            .contains(&format!("the image {site}/img/gone.png could not be downloaded (the server answered 404")),
        "{}",
        run.stdout()
    );
    assert!(!run.stdout().contains("stay on Medium's servers"), "{}", run.stdout());
}

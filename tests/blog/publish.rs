//! `hanji publish` against real targets on this machine: a folder, a bare
//! git repository (on disk and over SSH through OpenSSH's server), an SFTP
//! server (the same sshd) and an S3 server (moto). Each kind is taken
//! through a blog's life: the first publish sends the whole site, an
//! unchanged blog sends nothing, an edited post sends only the files whose
//! bytes changed, a deleted post is removed from the target, and a file
//! Hanji did not publish stays. A publish killed halfway is finished by
//! the next; a push the remote refuses, and a wrong secret, say what
//! happened and what to do. Secrets go through the real keychain.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::BlogTest;
use crate::servers::{PASSPHRASE, S3, Sshd, bare_repository, git};

/// A target as the tests look at it, independently of Hanji.
trait Place {
    /// `[publish.NAME]`'s settings (after `kind`).
    fn settings(&self) -> String;
    /// Every file there, with its bytes.
    fn files(&self) -> BTreeMap<String, Vec<u8>>;
    /// Puts a file there that Hanji did not publish.
    fn add_foreign(&self, path: &str, bytes: &[u8]);
}

struct Folder(PathBuf);

impl Place for Folder {
    fn settings(&self) -> String {
        format!("kind = \"folder\"\npath = {:?}\n", self.0.display().to_string())
    }
    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        files_in(&self.0)
    }
    fn add_foreign(&self, path: &str, bytes: &[u8]) {
        let file = self.0.join(path);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(file, bytes).unwrap();
    }
}

struct Sftp<'a> {
    sshd: &'a Sshd,
    root: PathBuf,
    key: &'a str,
}

impl Place for Sftp<'_> {
    fn settings(&self) -> String {
        format!(
            "kind = \"sftp\"\nhost = \"127.0.0.1\"\nport = {}\nuser = {:?}\npath = {:?}\nkey = {:?}\nknown_hosts = {:?}\n",
            self.sshd.port,
            self.sshd.user,
            self.root.display().to_string(),
            self.sshd.key(self.key).display().to_string(),
            self.sshd.known_hosts().display().to_string(),
        )
    }
    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        files_in(&self.root)
    }
    fn add_foreign(&self, path: &str, bytes: &[u8]) {
        Folder(self.root.clone()).add_foreign(path, bytes)
    }
}

struct Git {
    repo: PathBuf,
    /// The address Hanji pushes to (the folder, or `ssh://…`).
    remote: String,
    extra: String,
}

impl Place for Git {
    fn settings(&self) -> String {
        format!("kind = \"git\"\nremote = {:?}\nbranch = \"gh-pages\"\n{}", self.remote, self.extra)
    }
    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        let clone = tempfile::tempdir().unwrap();
        let has_branch = !git(&self.repo, &["branch", "--list", "gh-pages"]).trim().is_empty();
        if !has_branch {
            return BTreeMap::new();
        }
        git(clone.path(), &["clone", "-q", "-b", "gh-pages", self.repo.to_str().unwrap(), "."]);
        let mut files = files_in(clone.path());
        files.retain(|path, _| !path.starts_with(".git/"));
        files
    }
    fn add_foreign(&self, path: &str, bytes: &[u8]) {
        let clone = tempfile::tempdir().unwrap();
        git(clone.path(), &["clone", "-q", "-b", "gh-pages", self.repo.to_str().unwrap(), "."]);
        Folder(clone.path().to_path_buf()).add_foreign(path, bytes);
        git(clone.path(), &["add", "."]);
        git(clone.path(), &["commit", "-q", "-m", "A file of the author's own"]);
        git(clone.path(), &["push", "-q", "origin", "gh-pages"]);
    }
}

struct Bucket<'a> {
    s3: &'a S3,
    name: &'a str,
}

impl Place for Bucket<'_> {
    fn settings(&self) -> String {
        format!(
            "kind = \"bucket\"\nbucket = \"{}\"\nendpoint = \"{}\"\naccess_key = \"{}\"\n",
            self.name,
            self.s3.endpoint(),
            self.s3.access_key
        )
    }
    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        let code = format!(
            "import json\nout = {{}}\np = s3.get_paginator('list_objects_v2')\n\
             for page in p.paginate(Bucket='{0}'):\n    for o in page.get('Contents', []):\n        \
             out[o['Key']] = s3.get_object(Bucket='{0}', Key=o['Key'])['Body'].read().hex()\nprint(json.dumps(out))\n",
            self.name
        );
        let map: BTreeMap<String, String> = serde_json::from_str(&self.s3.python(&code)).unwrap();
        map.into_iter()
            .map(|(k, hex)| {
                (k, (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect())
            })
            .collect()
    }
    fn add_foreign(&self, path: &str, bytes: &[u8]) {
        let code = format!("s3.put_object(Bucket='{}', Key={path:?}, Body=bytes.fromhex('{}'))", self.name, hex(bytes));
        self.s3.python(&code);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn files_in(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    crate::files(dir).into_iter().map(|f| (f.clone(), fs::read(dir.join(&f)).unwrap())).collect()
}

/// A blog to publish: a copy of the sample (or of `source`) with the target
/// `pages`, and a cache folder of its own.
struct Publishing {
    blog: BlogTest,
    cache: tempfile::TempDir,
}

impl Publishing {
    fn new(blog: BlogTest, place: &dyn Place) -> Self {
        let settings = fs::read_to_string(blog.path().join("hanji.toml")).unwrap_or_default();
        fs::write(blog.path().join("hanji.toml"), format!("{settings}\n[publish.pages]\n{}", place.settings()))
            .unwrap();
        Publishing { blog, cache: tempfile::tempdir().unwrap() }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hanji"));
        command
            .arg("publish")
            .args(args)
            .arg(self.blog.path())
            .env("HANJI_CACHE_DIR", self.cache.path())
            .env("HANJI_CONFIG_DIR", self.cache.path().join("config"))
            .env_remove("HANJI_PUBLISH_SECRET")
            .stdin(Stdio::null());
        command
    }

    /// `hanji publish -v`: the files sent and removed, and stderr; fails
    /// the test if it fails.
    fn publish(&self, args: &[&str]) -> Sent {
        let sent = self.try_publish(args);
        assert_eq!(sent.code, 0, "hanji publish failed:\n{}", sent.stderr);
        sent
    }

    fn try_publish(&self, args: &[&str]) -> Sent {
        let mut all = vec!["--verbose", "--quiet"];
        all.extend(args);
        let output = self.command(&all).output().unwrap();
        Sent::of(&output.stdout, &output.stderr, output.status.code().unwrap_or(-1))
    }

    /// The site as `hanji export` makes it now: each file and its bytes.
    fn site(&self) -> BTreeMap<String, Vec<u8>> {
        let out = tempfile::tempdir().unwrap();
        let run = crate::export(&self.blog, &out.path().join("site"), &[]);
        assert!(run.code() == 0, "{}", run.stderr());
        let mut files = files_in(&out.path().join("site"));
        files.remove(".hanji-export");
        files
    }

    fn target(&self) -> hanji::PublishTarget {
        hanji::load(self.blog.path()).unwrap().config.publish[0].clone()
    }
}

struct Sent {
    sent: Vec<String>,
    /// What a dry run would send.
    would: Vec<String>,
    removed: Vec<String>,
    stderr: String,
    code: i32,
}

impl Sent {
    fn of(stdout: &[u8], stderr: &[u8], code: i32) -> Self {
        let stdout = String::from_utf8_lossy(stdout);
        let lines = |prefix: &str| stdout.lines().filter_map(|l| l.strip_prefix(prefix)).map(str::to_string).collect();
        Sent {
            sent: lines("sent "),
            would: lines("send "),
            removed: lines("removed "),
            stderr: String::from_utf8_lossy(stderr).into(),
            code,
        }
    }

    fn set(&self) -> BTreeSet<String> {
        self.sent.iter().cloned().collect()
    }
}

/// The files whose bytes differ between two sites (or are in one only).
fn changed(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> BTreeSet<String> {
    after.iter().filter(|(path, bytes)| before.get(*path) != Some(bytes)).map(|(path, _)| path.clone()).collect()
}

const RECORD: &str = ".hanji-publish.json";

/// The target holds the site and the foreign files, and Hanji's record.
fn assert_holds(place: &dyn Place, site: &BTreeMap<String, Vec<u8>>, foreign: &[(&str, &[u8])]) {
    let mut there = place.files();
    assert!(there.remove(RECORD).is_some(), "the record is on the target");
    for (path, bytes) in foreign {
        assert_eq!(
            there.remove(*path).as_deref(),
            Some(*bytes),
            "{path}: a file Hanji did not publish stays as it was"
        );
    }
    let missing: Vec<&String> = site.keys().filter(|p| !there.contains_key(*p)).collect();
    let extra: Vec<&String> = there.keys().filter(|p| !site.contains_key(*p)).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing on the target: {missing:?}\nnot in the site: {extra:?}");
    for (path, bytes) in site {
        assert!(there[path] == *bytes, "{path} differs on the target");
    }
}

/// A blog's life on one target: see the module's comment.
fn life(publishing: &Publishing, place: &dyn Place) {
    let blog = &publishing.blog;
    let first_site = publishing.site();

    let first = publishing.publish(&[]);
    assert_eq!(first.set(), first_site.keys().cloned().collect(), "the first publish sends the whole site");
    assert!(first.stderr.contains(&format!("{} files sent", first_site.len())), "{}", first.stderr);
    assert_holds(place, &first_site, &[]);

    let foreign: [(&str, &[u8]); 2] =
        [("keep-me.txt", b"the author's own file"), ("posts/elsewhere/index.html", b"<p>not Hanji's</p>")];
    for (path, bytes) in foreign {
        place.add_foreign(path, bytes);
    }

    let again = publishing.publish(&[]);
    assert!(again.sent.is_empty() && again.removed.is_empty(), "an unchanged blog sends nothing: {:?}", again.sent);
    assert!(again.stderr.contains("0 files sent"), "{}", again.stderr);

    // One post edited: only the files whose bytes changed.
    let post = blog.path().join("posts/rust-async-cancellation.md");
    let text = fs::read_to_string(&post).unwrap();
    fs::write(&post, text + "\nOne more paragraph, added after publishing.\n").unwrap();
    let edited_site = publishing.site();
    let expected = changed(&first_site, &edited_site);
    assert!(!expected.is_empty() && expected.len() < first_site.len() / 4, "{expected:?}");
    let dry = publishing.try_publish(&["--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(dry.would.iter().cloned().collect::<BTreeSet<_>>(), expected, "--dry-run lists what would be sent");
    assert!(dry.sent.is_empty());
    assert_holds(place, &first_site, &foreign);
    let edited = publishing.publish(&[]);
    assert_eq!(edited.set(), expected, "only the files whose bytes changed are sent");
    assert!(edited.set().contains("posts/rust-async-cancellation/index.html"));
    assert_holds(place, &edited_site, &foreign);

    // One post deleted: its page is removed from the target.
    fs::remove_file(blog.path().join("posts/nvidia-smi-topo-note.md")).unwrap();
    let deleted_site = publishing.site();
    let deleted = publishing.publish(&[]);
    assert!(deleted.removed.contains(&"posts/nvidia-smi-topo-note/index.html".to_string()), "{:?}", deleted.removed);
    assert_eq!(deleted.set(), changed(&edited_site, &deleted_site));
    assert_holds(place, &deleted_site, &foreign);
}

#[test]
fn publish_to_a_folder() {
    let target = tempfile::tempdir().unwrap();
    let place = Folder(target.path().to_path_buf());
    life(&Publishing::new(BlogTest::sample(), &place), &place);
}

#[test]
fn publish_to_a_git_branch() {
    let (_dir, repo) = bare_repository();
    let place = Git { remote: repo.display().to_string(), repo: repo.clone(), extra: String::new() };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    life(&publishing, &place);
    // One commit per publish that changed something (and the author's own
    // two), each naming what changed; history kept.
    let log = git(&repo, &["log", "--format=%s", "gh-pages"]);
    let subjects: Vec<&str> = log.lines().collect();
    assert_eq!(subjects.len(), 5, "{log}");
    assert_eq!(subjects[4], "Publish the site: 14 posts", "{log}");
    assert_eq!(subjects[3], "A file of the author's own");
    assert!(subjects[1].starts_with("Publish \u{201c}Cancellation in async Rust"), "the edited post is named: {log}");
}

#[test]
fn publish_to_an_sftp_server() {
    let sshd = Sshd::start();
    let root = sshd.dir.path().join("www");
    fs::create_dir(&root).unwrap();
    let place = Sftp { sshd: &sshd, root, key: "user_key" };
    life(&Publishing::new(BlogTest::sample(), &place), &place);
}

#[test]
fn publish_to_a_bucket() {
    let s3 = S3::start("blog");
    let place = Bucket { s3: &s3, name: "blog" };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    hanji::keychain::keep(&publishing.target(), &s3.secret).unwrap();
    life(&publishing, &place);
    // Each file with its content type and a cache header fit for it.
    let (_, page_type, page_cache) = s3.object("blog", "posts/rust-async-cancellation/index.html");
    assert_eq!(
        (page_type.as_str(), page_cache.as_str()),
        ("text/html; charset=utf-8", "public, max-age=0, must-revalidate")
    );
    let (_, css_type, css_cache) = s3.object("blog", "style.css");
    assert_eq!((css_type.as_str(), css_cache.as_str()), ("text/css; charset=utf-8", "public, max-age=3600"));
}

#[test]
fn publish_over_ssh_to_a_git_remote_with_a_locked_key() {
    let sshd = Sshd::start();
    let (_dir, repo) = bare_repository();
    let place = Git {
        remote: format!("ssh://{}@127.0.0.1:{}{}", sshd.user, sshd.port, repo.display()),
        repo: repo.clone(),
        extra: format!(
            "key = {:?}\nknown_hosts = {:?}\n",
            sshd.key("locked_key").display().to_string(),
            sshd.known_hosts().display().to_string()
        ),
    };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    let target = publishing.target();

    // A wrong passphrase: said so, with what to do; nothing pushed.
    hanji::keychain::keep(&target, "not the passphrase").unwrap();
    let wrong = publishing.try_publish(&[]);
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
    assert!(wrong.stderr.contains("error: cannot sign in") || wrong.stderr.contains("passphrase"), "{}", wrong.stderr);
    assert!(wrong.stderr.contains("hint: enter the token (or the key's passphrase) again"), "{}", wrong.stderr);
    assert!(place.files().is_empty());

    hanji::keychain::keep(&target, PASSPHRASE).unwrap();
    let site = publishing.site();
    let first = publishing.publish(&[]);
    assert_eq!(first.sent.len(), site.len());
    assert_holds(&place, &site, &[]);
    assert!(publishing.publish(&[]).sent.is_empty(), "an unchanged blog sends nothing");
}

#[test]
fn an_unknown_ssh_server_is_not_trusted_until_the_author_says_so() {
    let sshd = Sshd::start();
    let root = sshd.dir.path().join("www");
    fs::create_dir(&root).unwrap();
    fs::write(sshd.known_hosts(), "").unwrap();
    let place = Sftp { sshd: &sshd, root, key: "user_key" };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    let refused = publishing.try_publish(&[]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("is not known yet; its key's fingerprint is SHA256:"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--trust-host"), "{}", refused.stderr);
    assert!(place.files().is_empty());
    // A dry run trusts nothing: it writes nothing anywhere.
    let dry = publishing.try_publish(&["--trust-host", "--dry-run"]);
    assert!(dry.stderr.contains("is not trusted (nothing is written)"), "{}", dry.stderr);
    let own = publishing.cache.path().join("config/known_hosts");
    assert!(!own.exists());
    let trusted = publishing.publish(&["--trust-host"]);
    assert!(trusted.stderr.contains("trusted the server of `pages`: SHA256:"), "{}", trusted.stderr);
    assert!(!trusted.sent.is_empty());
    // Into Hanji's own known hosts; the file the settings name is only read.
    assert!(fs::read_to_string(&own).unwrap().starts_with(&format!("[127.0.0.1]:{} ssh-ed25519 ", sshd.port)));
    assert_eq!(fs::read_to_string(sshd.known_hosts()).unwrap(), "");
}

#[test]
fn a_changed_host_key_is_refused_with_both_fingerprints_until_the_author_trusts_the_new_one() {
    let sshd = Sshd::start();
    let root = sshd.dir.path().join("www");
    fs::create_dir(&root).unwrap();
    // The settings' file knows another key for the server, among lines of its own.
    let known = format!(
        "# the author's notes\n[127.0.0.1]:{} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDC6YcViqm2zfGmF2sxPAqQrlzfj6TSNYWNv8mcgEzLk\nother.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDC6YcViqm2zfGmF2sxPAqQrlzfj6TSNYWNv8mcgEzLk\n",
        sshd.port
    );
    fs::write(sshd.known_hosts(), &known).unwrap();
    let place = Sftp { sshd: &sshd, root, key: "user_key" };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    let refused = publishing.try_publish(&["--trust-host"]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("shows another key (SHA256:"), "{}", refused.stderr);
    assert!(refused.stderr.contains("than the one known for it (SHA256:"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--trust-changed-host SHA256:"), "{}", refused.stderr);
    assert!(place.files().is_empty());
    let new = refused.stderr.split("--trust-changed-host ").nth(1).unwrap().split('`').next().unwrap().to_string();
    let wrong = publishing.try_publish(&["--trust-changed-host", "SHA256:not-it"]);
    assert_eq!(wrong.code, 2);
    assert!(wrong.stderr.contains("nothing was trusted"), "{}", wrong.stderr);
    let trusted = publishing.publish(&["--trust-changed-host", &new]);
    assert!(!trusted.sent.is_empty(), "{}", trusted.stderr);
    assert_eq!(fs::read_to_string(sshd.known_hosts()).unwrap(), known, "the settings' file is never rewritten");
}

#[test]
fn a_wrong_password_says_what_to_do() {
    // The bucket's secret key.
    let s3 = S3::start("blog");
    let place = Bucket { s3: &s3, name: "blog" };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    hanji::keychain::keep(&publishing.target(), "wrong-secret").unwrap();
    let wrong = publishing.try_publish(&[]);
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
    assert!(wrong.stderr.contains("error: cannot read `.hanji-publish.json` in the bucket `blog`"), "{}", wrong.stderr);
    assert!(wrong.stderr.contains("hint: check the access key ID and enter its secret again"), "{}", wrong.stderr);
    assert!(place.files().is_empty(), "nothing was sent");

    // An SFTP key's passphrase.
    let sshd = Sshd::start();
    let root = sshd.dir.path().join("www");
    fs::create_dir(&root).unwrap();
    let place = Sftp { sshd: &sshd, root, key: "locked_key" };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    hanji::keychain::keep(&publishing.target(), "wrong").unwrap();
    let wrong = publishing.try_publish(&[]);
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
    assert!(
        wrong.stderr.contains(&format!("127.0.0.1 did not let `{}` in with the key", sshd.user)),
        "{}",
        wrong.stderr
    );
    assert!(wrong.stderr.contains("hint: check the user name and enter the password"), "{}", wrong.stderr);
    hanji::keychain::keep(&publishing.target(), PASSPHRASE).unwrap();
    assert!(!publishing.publish(&[]).sent.is_empty(), "the right passphrase lets it in");
}

#[test]
fn a_blog_without_the_target_named_is_told_how_to_add_one() {
    let blog = BlogTest::sample();
    let run = blog.hanji(&["publish", "--target", "pages"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("error: the blog has no publish target `pages`"), "{}", run.stderr());
    assert!(run.stderr().contains("hint: add [publish.pages] to hanji.toml"), "{}", run.stderr());
}

/// A blog of the sample's posts and `extra` more, so a publish takes a while.
fn big_blog(extra: usize) -> BlogTest {
    let mut blog = BlogTest::sample();
    for n in 0..extra {
        let text = format!(
            "---\ntitle: \"Note {n}\"\ndate: 2025-01-{:02}\ntags: [note-{}]\n---\n\nA short note, number {n}.\n",
            n % 28 + 1,
            n % 40
        );
        blog = blog.write(&format!("posts/note-{n}.md"), text);
    }
    blog
}

/// Runs a publish, lets it send until its output (a line a file) fills a
/// small pipe, kills it, then publishes again: the second finishes the job,
/// sending none of what the first confirmed.
fn killed_then_finished(publishing: &Publishing, place: &dyn Place, each_file_counts: bool) {
    let site = publishing.site();
    let before = place.files();
    let mut child =
        publishing.command(&["--verbose", "--quiet"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    // 4 KB of "sent …" lines, then the publish blocks on its output.
    rustix::pipe::fcntl_setpipe_size(&stdout, 4096).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while rustix::io::ioctl_fionread(&stdout).unwrap() < 3500 {
        assert!(child.try_wait().unwrap().is_none(), "the publish ended before it was killed");
        assert!(Instant::now() < deadline, "the publish sent nothing in 120 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut printed = String::new();
    let mut stdout = stdout;
    stdout.read_to_string(&mut printed).unwrap();
    let confirmed: BTreeSet<&str> = printed.lines().filter_map(|l| l.strip_prefix("sent ")).collect();
    assert!(!confirmed.is_empty() && confirmed.len() < site.len());

    let halfway = place.files();
    if each_file_counts {
        // What it confirmed is there; pages come after the files they link to.
        for path in &confirmed {
            assert_eq!(halfway.get(*path), site.get(*path), "{path} confirmed but not there");
        }
        let is_page = |p: &str| p.ends_with(".html") || p.ends_with(".xml") || p == "search/index.js";
        if halfway.keys().any(|p| is_page(p)) {
            let assets_missing: Vec<&String> =
                site.keys().filter(|p| !is_page(p) && !halfway.contains_key(*p)).collect();
            assert!(assets_missing.is_empty(), "a page was sent before {assets_missing:?}");
        }
    } else {
        assert_eq!(halfway, before, "nothing is on the branch until the push");
    }

    let finished = publishing.publish(&[]);
    if each_file_counts {
        for path in &confirmed {
            assert!(!finished.sent.contains(&path.to_string()), "{path} was sent again");
        }
        assert!(finished.sent.len() <= site.len() - confirmed.len());
    }
    assert_holds(place, &site, &[]);
}

#[test]
fn a_killed_publish_to_a_folder_is_finished_by_the_next() {
    let target = tempfile::tempdir().unwrap();
    let place = Folder(target.path().to_path_buf());
    killed_then_finished(&Publishing::new(big_blog(400), &place), &place, true);
}

#[test]
fn a_killed_publish_to_an_sftp_server_is_finished_by_the_next() {
    let sshd = Sshd::start();
    let root = sshd.dir.path().join("www");
    fs::create_dir(&root).unwrap();
    let place = Sftp { sshd: &sshd, root, key: "user_key" };
    killed_then_finished(&Publishing::new(big_blog(400), &place), &place, true);
}

#[test]
fn a_killed_publish_to_a_bucket_is_finished_by_the_next() {
    let s3 = S3::start("blog");
    let place = Bucket { s3: &s3, name: "blog" };
    let publishing = Publishing::new(big_blog(400), &place);
    hanji::keychain::keep(&publishing.target(), &s3.secret).unwrap();
    killed_then_finished(&publishing, &place, true);
}

#[test]
fn a_killed_publish_to_a_git_branch_is_finished_by_the_next() {
    let (_dir, repo) = bare_repository();
    let place = Git { remote: repo.display().to_string(), repo: repo.clone(), extra: String::new() };
    killed_then_finished(&Publishing::new(big_blog(400), &place), &place, false);
}

#[test]
fn a_push_refused_because_the_branch_moved_is_said_and_the_next_publish_builds_on_it() {
    let (_dir, repo) = bare_repository();
    let place = Git { remote: repo.display().to_string(), repo: repo.clone(), extra: String::new() };
    let publishing = Publishing::new(BlogTest::sample(), &place);
    publishing.publish(&[]);
    let post = publishing.blog.path().join("posts/rust-async-cancellation.md");
    fs::write(&post, fs::read_to_string(&post).unwrap() + "\nEdited.\n").unwrap();

    // While Hanji sends, someone else pushes to the branch.
    let blog = hanji::load(publishing.blog.path()).unwrap();
    let target = blog.config.publish[0].clone();
    let moved = AtomicBool::new(false);
    let options = hanji::PublishOptions {
        secret: None,
        dry_run: false,
        cache_dir: publishing.cache.path().to_path_buf(),
        cancel: None,
    };
    let move_branch = |step: hanji::PublishProgress| {
        if matches!(step, hanji::PublishProgress::Sending { .. }) && !moved.swap(true, Ordering::SeqCst) {
            place.add_foreign("CNAME", b"blog.example.com\n");
        }
    };
    let error = hanji::publish(&blog, &target, &options, &move_branch).unwrap_err();
    assert_eq!(error.fault, hanji::Fault::Rejected, "{error:?}");
    assert!(error.hint.contains("moved on the remote") && error.hint.contains("publish again"), "{}", error.hint);
    assert!(!error.hint.contains("force"), "never forced");
    assert_eq!(place.files().get("CNAME").map(Vec::as_slice), Some(&b"blog.example.com\n"[..]), "their commit stays");

    let again = publishing.publish(&[]);
    assert!(again.sent.contains(&"posts/rust-async-cancellation/index.html".to_string()));
    assert_holds(&place, &publishing.site(), &[("CNAME", b"blog.example.com\n")]);
    let log = git(&repo, &["log", "--format=%s", "gh-pages"]);
    assert_eq!(log.lines().nth(1), Some("A file of the author's own"), "built on their commit: {log}");
}

#[test]
fn a_cancelled_publish_is_finished_by_the_next() {
    let target = tempfile::tempdir().unwrap();
    let place = Folder(target.path().to_path_buf());
    let publishing = Publishing::new(BlogTest::sample(), &place);
    let blog = hanji::load(publishing.blog.path()).unwrap();
    let cancel = AtomicBool::new(false);
    let options = hanji::PublishOptions {
        secret: None,
        dry_run: false,
        cache_dir: publishing.cache.path().to_path_buf(),
        cancel: Some(&cancel),
    };
    let stop_after_ten = |step: hanji::PublishProgress| {
        if let hanji::PublishProgress::Sending { done: 10, .. } = step {
            cancel.store(true, Ordering::SeqCst);
        }
    };
    let error = hanji::publish(&blog, &blog.config.publish[0], &options, &stop_after_ten).unwrap_err();
    assert_eq!(error.fault, hanji::Fault::Cancelled);
    assert!(error.message.contains("after 10 of the changed files were sent"), "{}", error.message);
    // The ten files, and the empty record a first publish claims the folder with.
    let files = place.files();
    assert_eq!(files.len(), 11, "{:?}", files.keys());
    assert_eq!(
        files[".hanji-publish.json"], b"{\n  \"files\": {}\n}\n",
        "no file in the record yet: the publish did not finish"
    );
    let site = publishing.site();
    let finished = publishing.publish(&[]);
    assert_eq!(finished.sent.len(), site.len() - 10);
    assert_holds(&place, &site, &[]);
}

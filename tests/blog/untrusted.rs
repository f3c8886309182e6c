//! A blog is untrusted input (issue 30): a blog someone else wrote, opened
//! in every layout, must not make `hanji export`, `check`, `serve` or
//! `publish` write, delete or read outside the places it is allowed.
//!
//! Each test puts a hostile blog inside a user's home folder made for it
//! (`Home`: a `.bashrc`, an autostart folder, a secret file), runs the real
//! `hanji` on it, and holds that every file outside the output folder (and
//! Hanji's own cache) is unchanged, nothing was made outside it, and no byte
//! of the secret is in the site. The property test at the end draws every
//! name, slug, tag, permalink, alias and link from hostile strings.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;

use crate::Run;

/// What the user keeps outside the blog, which no blog may touch.
pub const SECRET: &str = "TOP-SECRET-7f3a9c";

/// A user's home folder with a blog in it (`blogs/evil`).
pub struct Home {
    dir: tempfile::TempDir,
}

/// One entry of a folder as it is: a file's bytes, a folder, a link's target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    File(Vec<u8>),
    Folder,
    Link(PathBuf),
}

impl Home {
    pub fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        for folder in [".cache", ".config/autostart", ".ssh", "blogs/evil", "site"] {
            fs::create_dir_all(home.join(folder)).unwrap();
        }
        fs::write(home.join(".bashrc"), "# mine\nexport PATH=$HOME/bin:$PATH\n").unwrap();
        fs::write(home.join(".ssh/known_hosts"), "# mine\ngit.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA\n")
            .unwrap();
        fs::write(home.join("secret.txt"), format!("{SECRET}\n")).unwrap();
        fs::write(home.join("site/keep.html"), "the user's own page\n").unwrap();
        Home { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn blog(&self) -> PathBuf {
        self.path().join("blogs/evil")
    }

    /// Writes a file of the blog.
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> &Home {
        let path = self.blog().join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
        self
    }

    /// `hanji ARGS… BLOG` as the user runs it: this home, Hanji's cache and
    /// settings in it.
    pub fn hanji(&self, args: &[&str]) -> Run {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hanji"));
        command
            .args(args)
            .arg(self.blog())
            .current_dir(self.blog())
            .env("HOME", self.path())
            .env("HANJI_CACHE_DIR", self.path().join(".cache/hanji"))
            .env("HANJI_CONFIG_DIR", self.path().join(".config/hanji"))
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_CACHE_HOME");
        Run(command.output().unwrap())
    }

    /// Every entry of the home folder but those under `allowed` (the blog's
    /// output folder, Hanji's own cache), links not followed.
    pub fn snapshot(&self, allowed: &[&Path]) -> BTreeMap<PathBuf, Entry> {
        let cache = self.path().join(".cache/hanji");
        let mut entries = BTreeMap::new();
        let walk = walkdir::WalkDir::new(self.path()).follow_links(false).into_iter();
        for entry in walk.filter_entry(|e| e.path() != cache && !allowed.iter().any(|a| e.path().starts_with(a))) {
            let entry = entry.unwrap();
            let what = if entry.path_is_symlink() {
                Entry::Link(fs::read_link(entry.path()).unwrap())
            } else if entry.file_type().is_dir() {
                Entry::Folder
            } else {
                Entry::File(fs::read(entry.path()).unwrap())
            };
            entries.insert(entry.path().strip_prefix(self.path()).unwrap().to_path_buf(), what);
        }
        entries
    }

    /// Runs `actions` and holds that nothing outside `allowed` changed, and
    /// that no file under `allowed` holds the secret.
    pub fn nothing_else_changes<T>(&self, allowed: &[&Path], actions: impl FnOnce() -> T) -> T {
        let before = self.snapshot(allowed);
        let done = actions();
        let after = self.snapshot(allowed);
        let changed: Vec<String> = before
            .keys()
            .chain(after.keys())
            .filter(|path| before.get(*path) != after.get(*path))
            .map(|path| path.display().to_string())
            .collect();
        assert!(changed.is_empty(), "changed outside the places allowed: {changed:?}");
        for folder in allowed {
            assert_no_secret(folder);
        }
        done
    }
}

/// No file under `folder` holds the secret (links not followed: a link
/// there is a blog's own, which Hanji refuses to write through).
pub fn assert_no_secret(folder: &Path) {
    for entry in walkdir::WalkDir::new(folder).follow_links(false).into_iter().filter_map(Result::ok) {
        if entry.file_type().is_file() {
            let bytes = fs::read(entry.path()).unwrap();
            let found = bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes());
            assert!(!found, "the secret is in {}", entry.path().display());
        }
    }
}

fn post(title: &str, extra: &str) -> String {
    format!("---\ntitle: {title}\ndate: 2024-05-01\n{extra}---\n\n{title}'s text.\n")
}

/// A blog of each layout with a post of every kind of climbing address:
/// its own slug, permalink, path or url, a tag, a category, an alias, a
/// page's slug, a file's name. Each layout keeps one plain post, which must
/// still be exported.
fn climbing_blogs() -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    let hostile_tags = "tags: [\"..\", \"../..\", \"．．\", \"%2e%2e\", \"..\\\\..\", \"CON\"]\n";
    vec![
        (
            "hanji",
            vec![
                ("hanji.toml", "title = \"Evil\"\n".into()),
                ("posts/good.md", post("Good", "tags: [fine]\n")),
                ("posts/dots.md", post("Dots", "slug: \"..\"\n")),
                ("posts/dot.md", post("Dot", "slug: \".\"\n")),
                ("posts/wide.md", post("Wide", "slug: \"．．\"\n")),
                ("posts/tags.md", post("Tags", hostile_tags)),
                (
                    "posts/alias.md",
                    post("Alias", "aliases: [\"../../../.bashrc\", \"/../../.config/autostart/x.desktop\"]\n"),
                ),
                ("pages/about.md", post("About", "slug: \"..\"\n")),
            ],
        ),
        (
            "jekyll",
            vec![
                ("_config.yml", "title: Evil\npermalink: /:categories/:title/\n".into()),
                ("_posts/2024-05-01-good.md", post("Good", "tags: [fine]\n")),
                ("_posts/2024-05-02-climb.md", post("Climb", "permalink: /../../../.bashrc\n")),
                ("_posts/2024-05-03-cats.md", post("Cats", "categories: [\"..\", \"..\", \"..\"]\n")),
                ("_posts/2024-05-04-tags.md", post("Tags", hostile_tags)),
                ("_posts/2024-05-05-from.md", post("From", "redirect_from: [\"../../../../.bashrc\"]\n")),
                ("_posts/2024-05-06-...md", post("Named", "")),
            ],
        ),
        (
            "hugo",
            vec![
                (
                    "hugo.toml",
                    "title = \"Evil\"\nbaseURL = \"https://e.example/\"\n[permalinks]\nposts = \"/:slug/\"\n".into(),
                ),
                ("content/posts/good.md", post("Good", "tags: [fine]\n")),
                ("content/posts/slug.md", post("Slug", "slug: \"..\"\n")),
                ("content/posts/url.md", post("Url", "url: \"/../../../.bashrc\"\n")),
                ("content/posts/tags.md", post("Tags", hostile_tags)),
                ("content/posts/alias.md", post("Alias", "aliases: [\"../../../../.bashrc\", \"..\"]\n")),
            ],
        ),
        (
            "zola",
            vec![
                (
                    "config.toml",
                    "title = \"Evil\"\nbase_url = \"https://e.example\"\ntaxonomies = [{name = \"tags\"}]\n".into(),
                ),
                ("content/_index.md", "+++\n+++\n".into()),
                ("content/posts/_index.md", "+++\ntitle = \"Posts\"\n+++\n".into()),
                ("content/posts/good.md", "+++\ntitle = \"Good\"\ndate = 2024-05-01\n+++\nGood.\n".into()),
                (
                    "content/posts/path.md",
                    "+++\ntitle = \"Path\"\ndate = 2024-05-01\npath = \"../../../.bashrc\"\n+++\nx\n".into(),
                ),
                (
                    "content/posts/tags.md",
                    "+++\ntitle = \"Tags\"\ndate = 2024-05-01\n[taxonomies]\ntags = [\"..\", \"...\"]\n+++\nx\n".into(),
                ),
                (
                    "content/posts/alias.md",
                    "+++\ntitle = \"Alias\"\ndate = 2024-05-01\naliases = [\"../../../x\"]\n+++\nx\n".into(),
                ),
            ],
        ),
        (
            "next-starter",
            vec![
                ("data/siteMetadata.js", "module.exports = { title: 'Evil', siteUrl: 'https://e.example' }\n".into()),
                ("data/blog/good.mdx", post("Good", "tags: [fine]\n")),
                ("data/blog/....mdx", post("Dots", "")),
                ("data/blog/tags.mdx", post("Tags", hostile_tags)),
            ],
        ),
    ]
}

#[test]
fn addresses_that_climb_stay_in_the_site_in_every_layout() {
    for (layout, files) in climbing_blogs() {
        let home = Home::new();
        for (path, text) in &files {
            home.write(path, text);
        }
        let out = home.path().join("site-out");
        home.nothing_else_changes(&[&out], || {
            let check = home.hanji(&["check"]);
            let exported = home.hanji(&["export", "--quiet", "--out", out.to_str().unwrap()]);
            assert!(exported.code() <= 1, "{layout}: {}", exported.stderr());
            let pages = crate::files(&out).into_iter().filter(|f| f.ends_with("good/index.html")).count();
            assert_eq!(pages, 1, "{layout}: the plain post is still exported: {:?}", crate::files(&out));
            // Every climbing name is an error of its post, at its file and line.
            let problems = check.stdout();
            assert!(problems.contains("cannot be a page of the site"), "{layout}: {problems}");
            for line in problems.lines().filter(|l| l.contains("cannot be a page of the site")) {
                let location = line.split(": error:").next().unwrap();
                assert!(location.matches(':').count() >= 2, "{layout}: file:line:column in {line}");
            }
        });
        // Nothing of the site above the output folder, nor beside it.
        assert!(!home.path().join("index.html").exists() && !home.path().join("tags").exists(), "{layout}");
        assert_eq!(fs::read_to_string(home.path().join(".bashrc")).unwrap(), "# mine\nexport PATH=$HOME/bin:$PATH\n");
    }
}

#[test]
fn an_output_folder_that_is_a_link_is_refused_with_what_to_do() {
    let home = Home::new();
    home.write("hanji.toml", "title = \"Evil\"\n").write("posts/a.md", post("A", "")).write("static/.bashrc", "evil\n");
    // The blog ships its output folder as a link to the user's home.
    symlink("../..", home.blog().join("public")).unwrap();
    home.nothing_else_changes(&[], || {
        let run = home.hanji(&["export"]);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert!(run.stderr().contains("is a symlink"), "{}", run.stderr());
        assert!(run.stderr().contains("hint: Hanji does not write through links"), "{}", run.stderr());
        let published = home.hanji(&["check"]);
        assert!(published.code() <= 1);
    });
}

#[test]
fn links_and_a_shipped_record_in_the_output_folder_are_never_followed() {
    let home = Home::new();
    home.write("hanji.toml", "title = \"Evil\"\n")
        .write("posts/a.md", post("A", ""))
        .write("posts/b.md", post("B", ""))
        .write("static/keep.txt", "a file of the site\n");
    // The blog ships its output folder: a folder of the site that is a link
    // out, and a record naming files to remove, in it and outside it.
    let public = home.blog().join("public");
    fs::create_dir_all(public.join("tags")).unwrap();
    symlink(home.path().join(".config/autostart"), public.join("posts")).unwrap();
    fs::write(public.join("mine.txt"), "listed in the shipped record\n").unwrap();
    let record =
        r#"{"files":["../../../.bashrc","../../../secret.txt","mine.txt","tags/x/index.html","/etc/hostname"]}"#;
    fs::write(public.join(".hanji-export"), record).unwrap();
    home.nothing_else_changes(&[&public], || {
        let run = home.hanji(&["export"]);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert!(run.stderr().contains("in the output folder is a symlink"), "{}", run.stderr());
        assert!(run.stderr().contains("hint: Hanji does not write through links"), "{}", run.stderr());
    });
    assert!(public.join("mine.txt").exists(), "a shipped record is not trusted to name files to remove");
    assert!(fs::read_dir(home.path().join(".config/autostart")).unwrap().next().is_none());
    // With the link gone, the site is written; still nothing the record named is removed.
    fs::remove_file(public.join("posts")).unwrap();
    let run = home.hanji(&["export"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(public.join("posts/a/index.html").exists() && public.join("mine.txt").exists());
}

#[test]
fn reading_stays_in_the_blog() {
    let home = Home::new();
    // A Hugo blog whose theme's name climbs to a folder of shortcodes
    // outside it, a post that shows files outside by relative and absolute
    // paths, and static files that are links out.
    fs::create_dir_all(home.path().join("layouts/shortcodes")).unwrap();
    fs::write(home.path().join("layouts/shortcodes/leak.html"), format!("<p>{SECRET}</p>\n")).unwrap();
    home.write("hugo.toml", "title = \"Evil\"\nbaseURL = \"https://e.example/\"\ntheme = \"../../..\"\n")
        .write(
            "content/posts/a.md",
            post(
                "A",
                "cover: ../../../../secret.txt\n",
            ) + "{{< leak >}}\n\n![s](../../../../secret.txt) ![t](/../../../secret.txt) [u](../../../../secret.txt)\n\n\
                 <img src=\"../../../../secret.txt\">\n",
        )
        .write("layouts/shortcodes/own.html", "<b>own</b>\n");
    symlink(home.path().join("secret.txt"), home.blog().join("static-secret.txt")).unwrap();
    fs::create_dir_all(home.blog().join("static")).unwrap();
    symlink(home.path().join("secret.txt"), home.blog().join("static/secret.txt")).unwrap();
    symlink(home.path(), home.blog().join("static/home")).unwrap();
    let out = home.path().join("site-out");
    home.nothing_else_changes(&[&out], || {
        let check = home.hanji(&["check"]);
        assert!(check.stdout().contains("symlink leads outside the blog folder"), "{}", check.stdout());
        let run = home.hanji(&["export", "--quiet", "--out", out.to_str().unwrap()]);
        assert!(run.code() <= 1, "{}", run.stderr());
        assert!(out.join("posts/a/index.html").exists(), "{}", run.stderr());
    });
}

#[test]
fn a_zola_section_that_is_a_link_out_is_neither_read_nor_followed() {
    let home = Home::new();
    // A folder outside the blog laid out as a Zola section with posts that
    // carry the secret; the blog links to it as `content/blog`.
    let outside = home.path().join("elsewhere");
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("_index.md"), "+++\nsort_by = \"date\"\n+++\n").unwrap();
    fs::write(outside.join("leak.md"), format!("+++\ntitle = \"Leak\"\ndate = 2024-01-01\n+++\n\n{SECRET}\n")).unwrap();
    home.write("config.toml", "base_url = \"https://z.example\"\ntitle = \"Z\"\n")
        .write("content/_index.md", "+++\nsort_by = \"date\"\n+++\n")
        .write("content/own.md", "+++\ntitle = \"Own\"\ndate = 2024-02-02\n+++\n\nMine.\n");
    symlink(&outside, home.blog().join("content/blog")).unwrap();
    let out = home.path().join("site-out");
    home.nothing_else_changes(&[&out], || {
        let run = home.hanji(&["export", "--quiet", "--out", out.to_str().unwrap()]);
        assert!(run.code() <= 1, "{}", run.stderr());
        assert!(out.join("own/index.html").exists(), "the blog's own post is published: {}", run.stderr());
        let written = crate::files(&out);
        assert!(!written.iter().any(|f| f.contains("leak")), "a post read through the link: {written:?}");
        for file in &written {
            let bytes = fs::read(out.join(file)).unwrap();
            assert!(!String::from_utf8_lossy(&bytes).contains(SECRET), "{file} holds what is outside the blog");
        }
    });
}

#[test]
fn a_publish_to_a_folder_writes_only_there_and_trusts_no_record_it_did_not_write() {
    let home = Home::new();
    let target = home.path().join("site");
    home.write(
        "hanji.toml",
        format!("title = \"Evil\"\n[publish.usb]\nkind = \"folder\"\npath = {:?}\n", target.display().to_string()),
    )
    .write("posts/a.md", post("A", ""))
    .write("static/bashrc", "evil\n");
    // The user's folder has files Hanji did not put there: refused.
    home.nothing_else_changes(&[], || {
        let run = home.hanji(&["publish", "--quiet"]);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert!(run.stderr().contains("has files that Hanji did not publish"), "{}", run.stderr());
    });
    // An empty folder: published there, and nowhere else.
    fs::remove_file(target.join("keep.html")).unwrap();
    let record = r#"{"files":{"../.bashrc":{"hash":"x","stamp":"y"},"../secret.txt":{"hash":"x","stamp":"y"}}}"#;
    fs::write(target.join(".hanji-publish.json"), record).unwrap();
    home.nothing_else_changes(&[&target], || {
        let run = home.hanji(&["publish", "--quiet"]);
        assert_eq!(run.code(), 0, "{}", run.stderr());
    });
    assert!(target.join("posts/a/index.html").exists());
    assert_eq!(fs::read_to_string(target.join("bashrc")).unwrap(), "evil\n", "the site's own file, in the target");
    assert_eq!(fs::read_to_string(home.path().join(".bashrc")).unwrap(), "# mine\nexport PATH=$HOME/bin:$PATH\n");
}

#[test]
fn one_export_or_publish_of_a_blog_at_a_time() {
    let home = Home::new();
    home.write("hanji.toml", "title = \"Locked\"\n").write("posts/a.md", post("A", ""));
    // Another export holds the blog's lock (as a process that is still writing would).
    let blog = hanji::load(&home.blog()).unwrap();
    let cache = home.path().join(".cache/hanji");
    let lock = hanji::lock_blog(&blog, Some(&cache)).unwrap();
    let run = home.hanji(&["export"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("another export or publish of this blog is under way (process "), "{}", run.stderr());
    assert!(run.stderr().contains("hint: wait for it to end"), "{}", run.stderr());
    drop(lock);
    let run = home.hanji(&["export"]);
    assert_eq!(run.code(), 0, "once the first ends: {}", run.stderr());
}

/// Names a hostile blog may give: dots in every form, slashes both ways,
/// percent-encodings, NUL and control characters, Windows' device names,
/// Hanji's own file names, and very long ones.
fn hostile_name() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "..",
        ".",
        "/",
        "\\",
        "%2e%2e",
        "%2F",
        "．",
        "‥",
        "\u{2024}",
        "\0",
        "\n",
        " ",
        "CON",
        "nul.txt",
        "a",
        "분산",
        ".hanji-export",
        ".hanji-publish.json",
        "~",
        "$HOME",
        "..\\..",
        "x.",
        "-",
        "__hanji",
    ]);
    (prop::collection::vec(pieces, 1..6), 0..3usize).prop_map(|(parts, long)| {
        let mut name = parts.concat();
        if long == 2 {
            name.push_str(&"a".repeat(300));
        }
        name
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whatever a blog's names are, its export writes only inside the
    /// output folder, and every post with a plain name is still written.
    #[test]
    fn hostile_names_never_leave_the_site(
        names in prop::collection::vec(hostile_name(), 6),
        layout in prop::sample::select(vec!["hanji", "jekyll", "hugo"]),
    ) {
        let home = Home::new();
        let quote = |text: &str| serde_json::to_string(text).unwrap();
        let extra = format!(
            "slug: {}\ntags: [{}, {}]\ncategories: [{}]\naliases: [{}]\nredirect_from: [{}]\npermalink: {}\nurl: {}\n",
            quote(&names[0]), quote(&names[1]), quote(&names[2]), quote(&names[3]), quote(&names[4]),
            quote(&names[4]), quote(&names[5]), quote(&names[5]),
        );
        let body = format!("[a]({}) ![b]({}) ![c](../../../../secret.txt)\n", names[0], names[1]);
        let (settings, folder) = match layout {
            "jekyll" => ("_config.yml", "_posts/2024-05-01-"),
            "hugo" => ("hugo.toml", "content/posts/"),
            _ => ("hanji.toml", "posts/"),
        };
        home.write(settings, if layout == "jekyll" { "title: H\n" } else { "title = \"H\"\n" });
        home.write(&format!("{folder}plain.md"), post("Plain", ""));
        home.write(&format!("{folder}hostile.md"), post("Hostile", &extra) + &body);
        let out = home.path().join("site-out");
        home.nothing_else_changes(&[&out], || {
            let blog = hanji::load(&home.blog()).unwrap();
            let options = hanji::ExportOptions::default();
            let summary = hanji::export(&blog, &out, &options, &|_, _| {}).unwrap();
            let plain = summary.problems.iter().all(|p| !p.path.ends_with("plain.md") || !p.is_error());
            prop_assert!(plain, "the plain post has no error: {:?}", summary.problems);
            Ok(())
        })?;
    }
}

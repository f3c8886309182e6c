//! The library follows the folder: real files in a temp folder, the real
//! watcher, and waits with a deadline for the state that must come (never a
//! sleep that guesses how fast the machine is).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use hanji::TagCount;
use hanji::{
    ChangeSet, FileChange, Found, Page, Routes, Site, SiteOptions, Target, Theme, Update, Watch, WatchOptions,
    WatchState,
};

use crate::{BlogTest, p};

/// Long enough for a loaded CI machine; a passing test never waits it out.
const DEADLINE: Duration = Duration::from_secs(20);

const A: &str = "---\ntitle: Alpha\ndate: 2026-07-17\ntags: [nccl, cuda]\n---\nAlpha body.\n";
const B: &str = "---\ntitle: Beta\ndate: 2026-05-16\ntags: [nccl]\n---\nBeta body.\n";
const C: &str = "---\ntitle: Gamma\ndate: 2026-06-01\ntags: [rust]\n---\nGamma body with ![a diagram](diagram.png).\n";

/// A small blog: two posts, a bundle with an image, a static file.
fn blog() -> BlogTest {
    BlogTest::empty()
        .write("hanji.toml", "title = \"Watched\"\nposts_per_page = 2\n")
        .write("posts/a.md", A)
        .write("posts/b.md", B)
        .write("posts/c/index.md", C)
        .write("posts/c/diagram.png", b"\x89PNG")
        .write("static/CNAME", "example.com\n")
}

pub struct Watched {
    pub blog: BlogTest,
    pub watch: Watch,
    updates: Receiver<Update>,
}

impl Watched {
    pub fn start(blog: BlogTest) -> Self {
        Self::with_options(blog, WatchOptions::default())
    }

    pub fn with_options(blog: BlogTest, options: WatchOptions) -> Self {
        let (send, updates) = mpsc::channel();
        let watch = Watch::start(blog.path(), options, move |update| {
            let _ = send.send(update.clone());
        })
        .unwrap();
        Watched { blog, watch, updates }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.blog.path().join(relative)
    }

    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) {
        let path = self.path(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    fn rename(&self, from: &str, to: &str) {
        let to = self.path(to);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::rename(self.path(from), to).unwrap();
    }

    /// The next update that `wanted` accepts; every update before it is
    /// given too (tests check that nothing else came).
    pub fn wait_for(&self, what: &str, wanted: impl Fn(&Update) -> bool) -> (Update, Vec<Update>) {
        let deadline = Instant::now() + DEADLINE;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.updates.recv_timeout(left) {
                Ok(update) if wanted(&update) => return (update, before),
                Ok(update) => before.push(update),
                Err(_) => panic!("no update with {what} within {DEADLINE:?}; got {before:#?}"),
            }
        }
    }

    /// The next change set that `wanted` accepts, with the ones before it.
    pub fn change(&self, what: &str, wanted: impl Fn(&ChangeSet) -> bool) -> (ChangeSet, Vec<Update>) {
        let (update, before) = self.wait_for(what, |u| matches!(u, Update::Changed(set) if wanted(set)));
        let Update::Changed(set) = update else { unreachable!() };
        (*set, before)
    }

    /// Waits until the watched blog is what a fresh load of the folder gives.
    pub fn settles(&self) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let fresh = hanji::load(self.blog.path()).unwrap();
            {
                let blog = self.watch.blog().read().unwrap();
                if blog.library == fresh.library
                    && blog.assets == fresh.assets
                    && blog.templates == fresh.templates
                    && blog.shortcodes == fresh.shortcodes
                    && blog.config == fresh.config
                {
                    return;
                }
                if Instant::now() > deadline {
                    assert_eq!(blog.library, fresh.library, "the library does not follow the folder");
                    assert_eq!(blog.assets, fresh.assets);
                    panic!("the blog does not follow the folder");
                }
            }
            // Whatever arrives meanwhile is not what this waits for.
            let _ = self.updates.recv_timeout(Duration::from_millis(20));
        }
    }

    fn tag(&self, slug: &str) -> Option<TagCount> {
        self.watch.blog().read().unwrap().library.tag_count(slug)
    }

    /// Whether the page at `site_path`, as the blog is now, is stale after `set`.
    fn stale(&self, set: &ChangeSet, site_path: &str) -> bool {
        let blog = self.watch.blog().read().unwrap();
        let theme = Theme::new(&blog.templates).0;
        let site = Site::new(&blog.config, &blog.library, &blog.assets, &theme, SiteOptions::default());
        match Routes::of(&site).find(site_path) {
            Found::At(target) => set.stale.contains(target),
            _ => panic!("no page at {site_path}"),
        }
    }
}

/// A page that may be gone from the blog, by what it showed.
fn page(page: Page) -> Target {
    Target::Page(page)
}

fn post_page(file: &str) -> Target {
    page(Page::Post(file.into()))
}

fn paths(changes: &[FileChange]) -> Vec<PathBuf> {
    changes.iter().map(|c| c.path.clone()).collect()
}

fn count(name: &str, count: usize) -> Option<TagCount> {
    Some(TagCount { name: name.into(), count, draft_count: 0 })
}

#[test]
fn a_new_post_is_added_with_its_tags() {
    let w = Watched::start(blog());
    w.write("posts/d.md", "---\ntitle: Delta\ndate: 2026-08-01\ntags: [nccl, zig]\n---\nDelta.\n");
    let (set, _) = w.change("posts/d.md added", |s| !s.added.is_empty());
    assert_eq!(paths(&set.added), [p("posts/d.md")]);
    assert!(set.added[0].external);
    let zig = set.tags.iter().find(|t| t.slug == "zig").expect("zig appeared");
    assert_eq!((zig.before.clone(), zig.after.clone()), (None, count("zig", 1)));
    let nccl = set.tags.iter().find(|t| t.slug == "nccl").unwrap();
    assert_eq!((nccl.before.clone(), nccl.after.clone()), (count("nccl", 2), count("nccl", 3)));
    // Its page, its neighbour's page (Alpha links to it now), every list,
    // and Beta's page, whose related posts (by `nccl`) may name it now.
    for page in ["posts/d/", "posts/a/", "", "tags/", "tags/nccl/", "tags/zig/", "tags/rust/", "feed.xml", "posts/b/"] {
        assert!(w.stale(&set, page), "{page} is stale: {:?}", set.stale);
    }
    assert!(!w.stale(&set, "posts/c/"), "not a neighbour, no tag in common");
    w.settles();
}

#[test]
fn editing_the_body_makes_only_its_page_stale() {
    let w = Watched::start(blog());
    w.write("posts/b.md", B.replace("Beta body.", "Beta body.\n\nA second paragraph."));
    let (set, _) = w.change("posts/b.md changed", |s| !s.changed.is_empty());
    assert_eq!(paths(&set.changed), [p("posts/b.md")]);
    assert!(set.tags.is_empty() && set.added.is_empty() && set.removed.is_empty());
    assert!(w.stale(&set, "posts/b/"));
    // The summary is the first paragraph, unchanged: lists show nothing new.
    assert!(!w.stale(&set, "") && !w.stale(&set, "tags/nccl/"), "{:?}", set.stale);
    w.settles();
}

#[test]
fn a_new_title_makes_lists_and_neighbours_stale() {
    let w = Watched::start(blog());
    w.write("posts/c/index.md", C.replace("Gamma", "Gamma, renamed"));
    let (set, _) = w.change("posts/c/index.md changed", |s| !s.changed.is_empty());
    assert_eq!(paths(&set.changed), [p("posts/c/index.md")]);
    for page in ["posts/c/", "posts/a/", "posts/b/", "", "tags/rust/", "feed.xml", "sitemap.xml"] {
        assert!(w.stale(&set, page), "{page}: {:?}", set.stale);
    }
    assert!(!set.stale.lists, "no count changed");
    w.settles();
}

#[test]
fn a_deleted_post_takes_its_tags_away() {
    let w = Watched::start(blog());
    fs::remove_file(w.path("posts/c/index.md")).unwrap();
    let (set, _) = w.change("posts/c/index.md removed", |s| !s.removed.is_empty());
    assert_eq!(paths(&set.removed), [p("posts/c/index.md")]);
    assert!(set.removed[0].external, "removed by someone else");
    let rust = set.tags.iter().find(|t| t.slug == "rust").expect("rust vanished");
    assert_eq!((rust.before.clone(), rust.after.clone()), (count("rust", 1), None));
    let (gone, tag) = (post_page("posts/c/index.md"), page(Page::Tag("rust".into(), 1)));
    assert!(set.stale.contains(&gone) && set.stale.contains(&tag) && set.stale.lists);
    w.settles();
}

#[test]
fn tags_added_and_removed_move_the_counts() {
    let w = Watched::start(blog());
    w.write("posts/b.md", B.replace("tags: [nccl]", "tags: [cuda, Rust]"));
    let (set, _) = w.change("tags changed", |s| !s.tags.is_empty());
    let changed: Vec<_> = set
        .tags
        .iter()
        .map(|t| (t.slug.as_str(), t.before.as_ref().map(|c| c.count), t.after.as_ref().map(|c| c.count)))
        .collect();
    assert_eq!(changed, [("cuda", Some(1), Some(2)), ("nccl", Some(1 + 1), Some(1)), ("rust", Some(1), Some(2))]);
    assert!(set.stale.lists, "every sidebar shows the counts");
    assert_eq!(w.tag("nccl"), count("nccl", 1));
    w.settles();
}

#[test]
fn a_rename_is_one_move() {
    let w = Watched::start(blog());
    w.rename("posts/a.md", "posts/alpha.md");
    let (set, _) = w.change("a rename", |s| !s.renamed.is_empty());
    assert_eq!(set.renamed.len(), 1);
    assert_eq!((set.renamed[0].from.clone(), set.renamed[0].to.clone()), (p("posts/a.md"), p("posts/alpha.md")));
    assert!(set.added.is_empty() && set.removed.is_empty(), "{set:?}");
    assert!(set.renamed[0].external, "moved by someone else");
    // The slug follows the file name: the page at both addresses is stale.
    assert!(set.stale.contains(&post_page("posts/a.md")) && w.stale(&set, "posts/alpha/"));
    w.settles();
}

#[test]
fn a_rename_across_folders_and_a_moved_bundle() {
    let w = Watched::start(blog());
    w.rename("posts/b.md", "posts/2026/b.md");
    w.rename("posts/c", "posts/archive/c");
    w.settles();
    let blog = w.watch.blog().read().unwrap();
    assert!(blog.library.post(Path::new("posts/2026/b.md")).is_some());
    assert!(blog.library.post(Path::new("posts/archive/c/index.md")).is_some());
    assert!(blog.assets.contains(Path::new("posts/archive/c/diagram.png")));
    assert!(!blog.assets.contains(Path::new("posts/c/diagram.png")));
}

#[test]
fn deleting_a_bundle_folder_removes_the_post_and_its_files() {
    let w = Watched::start(blog());
    fs::remove_dir_all(w.path("posts/c")).unwrap();
    let (set, _) = w.change("the bundle's post removed", |s| !s.removed.is_empty());
    assert_eq!(paths(&set.removed), [p("posts/c/index.md")]);
    w.settles();
    assert!(!w.watch.blog().read().unwrap().assets.contains(Path::new("posts/c/diagram.png")));
}

#[test]
fn a_save_through_a_temp_file_is_one_change() {
    let w = Watched::start(blog());
    let text = A.replace("Alpha body.", "Alpha, saved the way editors save.");
    // VS Code, JetBrains: write a temp file beside, then rename it over.
    w.write("posts/a.md.tmp", &text);
    w.rename("posts/a.md.tmp", "posts/a.md");
    // vim: a `4913` probe, a backup `a.md~`, the swap file, then the write.
    w.write("posts/4913", "");
    fs::remove_file(w.path("posts/4913")).unwrap();
    w.write("posts/.a.md.swp", "swap");
    w.write("posts/b.md~", B);
    w.write("posts/b.md", B.replace("Beta body.", "Beta, saved by vim."));
    let (set, before) =
        w.change("both saves", |s| s.changed.len() == 2 || paths(&s.changed).contains(&p("posts/b.md")));
    let mut all = vec![set];
    all.extend(before.into_iter().filter_map(|u| if let Update::Changed(s) = u { Some(*s) } else { None }));
    for set in &all {
        assert!(set.added.is_empty() && set.removed.is_empty() && set.assets.is_empty(), "temp files seen: {set:?}");
        assert!(set.renamed.is_empty());
    }
    w.settles();
    let blog = w.watch.blog().read().unwrap();
    assert_eq!(blog.library.post(Path::new("posts/a.md")).unwrap().source(), text);
}

#[test]
fn a_file_written_in_chunks_ends_whole() {
    let w = Watched::start(blog());
    let text =
        format!("---\ntitle: Chunky\ndate: 2026-09-09\ntags: [chunks]\n---\n{}", "A line of text.\n".repeat(2000));
    let mut file = fs::File::create(w.path("posts/chunky.md")).unwrap();
    for chunk in text.as_bytes().chunks(4096) {
        file.write_all(chunk).unwrap();
        file.flush().unwrap();
        // A slow writer: the pause lets the watcher see the file half done.
        std::thread::sleep(Duration::from_millis(15));
    }
    drop(file);
    w.settles();
    let blog = w.watch.blog().read().unwrap();
    assert_eq!(blog.library.post(Path::new("posts/chunky.md")).unwrap().source(), text);
    assert_eq!(blog.library.tag_count("chunks"), count("chunks", 1));
}

#[test]
fn a_burst_of_a_thousand_changes_is_coalesced_and_equals_a_fresh_load() {
    let w = Watched::start(blog());
    let started = Instant::now();
    // Like a branch switch: many posts appear, some change, some go.
    for i in 0..990 {
        let tags = ["nccl", "cuda", "rust", "분산 학습", "zig"];
        let text = format!(
            "---\ntitle: Post {i}\ndate: 2026-01-{:02}\ntags: [{}, {}]\n---\nBody {i}.\n",
            i % 28 + 1,
            tags[i % 5],
            tags[(i / 5) % 5]
        );
        w.write(&format!("posts/burst/{:03}/p{i}.md", i / 100), &text);
    }
    w.write("posts/a.md", A.replace("Alpha", "Alpha again"));
    w.write("posts/b.md", B.replace("[nccl]", "[zig]"));
    fs::remove_dir_all(w.path("posts/c")).unwrap();
    for i in 0..7 {
        w.write(&format!("static/img/{i}.png"), b"png");
    }
    let written = started.elapsed();
    let mut updates = Vec::new();
    loop {
        let (update, _) = w.wait_for("the burst", |u| matches!(u, Update::Changed(_)));
        updates.push(update);
        let fresh = hanji::load(w.blog.path()).unwrap();
        let blog = w.watch.blog().read().unwrap();
        if blog.library == fresh.library && blog.assets == fresh.assets {
            break;
        }
    }
    let sizes: Vec<usize> = updates
        .iter()
        .map(|u| match u {
            Update::Changed(c) => c.added.len() + c.changed.len() + c.removed.len() + c.renamed.len() + c.assets.len(),
            _ => 0,
        })
        .collect();
    eprintln!("a burst of 1,000 changes, written in {written:?}, came as updates of {sizes:?} files");
    // Held until the writing stops, the burst comes as one update on a quiet
    // machine. On a busy one the watcher's threads may get the events late and
    // apply a first part early; still a few updates, never one per file.
    assert!(updates.len() <= 50, "the burst was not coalesced: updates of {sizes:?} files");
    assert!(updates.iter().any(|u| matches!(u, Update::Changed(c) if c.stale.lists)), "tag counts moved");
    assert_eq!(w.watch.blog().read().unwrap().library.len(), 992);
}

#[test]
fn ignored_paths_produce_nothing() {
    let w = Watched::start(blog());
    for path in [
        ".git/objects/ab/cdef0123",
        ".git/HEAD",
        "node_modules/pkg/index.md",
        "posts/node_modules/x.md",
        "public/index.html",
        "public/posts/a/index.html",
        "posts/a.md~",
        "posts/.a.md.swp",
        "posts/4913",
        "posts/.#a.md",
        "posts/a.md.tmp",
        "static/.DS_Store",
        "templates/.post.html.swp",
        "notes.md",
    ] {
        w.write(path, "ignored");
    }
    // Events come in order: whatever the ignored files caused would come
    // before (or with) this one.
    w.write("posts/sentinel.md", "---\ntitle: Sentinel\ndate: 2026-01-01\n---\n");
    let (set, before) = w.change("the sentinel", |s| !s.added.is_empty());
    assert!(before.is_empty(), "ignored files made updates: {before:#?}");
    assert_eq!(paths(&set.added), [p("posts/sentinel.md")]);
    assert!(set.assets.is_empty() && set.changed.is_empty() && !set.templates && !set.config, "{set:#?}");
    w.settles();
}

#[test]
fn hanjis_own_writes_are_not_outside_changes() {
    let w = Watched::start(blog());
    let ours = A.replace("Alpha body.", "Saved from Hanji.");
    w.watch.own_writes().expect(Path::new("posts/a.md"), ours.as_bytes());
    w.write("posts/a.md", &ours);
    let (set, _) = w.change("our save", |s| !s.changed.is_empty());
    assert_eq!(set.changed[0].path, p("posts/a.md"));
    assert!(!set.changed[0].external, "Hanji's own write");
    assert!(!set.is_external());
    // The next write to the file is someone else's.
    w.write("posts/a.md", A.replace("Alpha body.", "Changed in another editor."));
    let (set, _) = w.change("their save", |s| !s.changed.is_empty());
    assert!(set.changed[0].external);
}

#[test]
fn settings_and_templates_reload_what_depends_on_them() {
    let w = Watched::start(blog());
    w.write("hanji.toml", "title = \"Watched\"\nposts_per_page = 1\ntag_title = \"as-is\"\n");
    let (set, _) = w.change("the settings", |s| s.config);
    assert!(set.rescanned && set.stale.all);
    w.settles();
    w.write("templates/post.html", "{% extends \"base.html\" %}{% block content %}MINE{% endblock %}");
    let (set, _) = w.change("a template", |s| s.templates);
    assert!(set.stale.all);
    w.settles();
    // A broken template is a problem of that file, then cleared.
    w.write("templates/post.html", "{% if %}");
    let (set, _) = w.change("a broken template", |s| s.templates);
    assert!(set.stale.all);
    fs::remove_file(w.path("templates/post.html")).unwrap();
    w.change("the template removed", |s| s.templates);
    w.settles();
}

#[test]
fn a_post_that_breaks_reports_its_problem_and_clears_it() {
    let w = Watched::start(blog());
    w.write("posts/b.md", "---\ntitle: [unclosed\n---\nBody\n");
    let (set, _) = w.change("a problem", |s| !s.diagnostics_added.is_empty());
    assert!(set.diagnostics_added.iter().all(|d| d.path == p("posts/b.md")), "{set:#?}");
    assert!(w.stale(&set, "posts/b/"));
    w.write("posts/b.md", B);
    let (set, _) = w.change("the problem cleared", |s| !s.diagnostics_cleared.is_empty());
    assert!(set.diagnostics_added.is_empty());
    w.settles();
}

#[test]
fn two_posts_with_one_slug_are_a_problem_of_both() {
    let w = Watched::start(blog());
    w.write("posts/other.md", "---\ntitle: Other\nslug: a\ndate: 2026-01-01\n---\n");
    let (set, _) = w.change("a slug clash", |s| !s.diagnostics_added.is_empty());
    let files: Vec<_> = set.diagnostics_added.iter().map(|d| d.path.clone()).collect();
    assert_eq!(files, [p("posts/a.md"), p("posts/other.md")]);
    w.settles();
}

#[test]
fn the_blog_folder_deleted_then_back() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("blog");
    let source = blog();
    fs::create_dir(&root).unwrap();
    for file in crate::files(source.path()) {
        let to = root.join(&file);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(source.path().join(&file), to).unwrap();
    }
    let (send, updates) = mpsc::channel();
    let watch = Watch::start(&root, WatchOptions::default(), move |u| drop(send.send(u.clone()))).unwrap();
    let next = |what: &str, wanted: &dyn Fn(&Update) -> bool| loop {
        match updates.recv_timeout(DEADLINE) {
            Ok(update) if wanted(&update) => return update,
            Ok(_) => {}
            Err(_) => panic!("no {what} within {DEADLINE:?}"),
        }
    };
    // Moved away at once (a deletion file by file may be seen half done,
    // and the blog kept is then what was left of it).
    fs::rename(&root, parent.path().join("trashed")).unwrap();
    let Update::Gone { message } = next("gone", &|u| matches!(u, Update::Gone { .. })) else { unreachable!() };
    assert!(message.contains("deleted or moved away"), "{message}");
    assert_eq!(watch.state(), WatchState::Gone);
    assert_eq!(watch.blog().read().unwrap().library.len(), 3, "the last blog is kept");

    // It comes back, with one post fewer.
    fs::create_dir_all(root.join("posts")).unwrap();
    fs::write(root.join("posts/a.md"), A).unwrap();
    next("back", &|u| matches!(u, Update::Back { message } if message.contains("is back")));
    let deadline = Instant::now() + DEADLINE;
    while watch.blog().read().unwrap().library != hanji::load(&root).unwrap().library {
        assert!(Instant::now() < deadline, "the library does not follow the folder that came back");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_ne!(watch.state(), WatchState::Gone);

    // Moved away is gone too.
    fs::rename(&root, parent.path().join("elsewhere")).unwrap();
    next("gone after a move", &|u| matches!(u, Update::Gone { .. }));
}

#[test]
fn the_polling_fallback_follows_the_folder() {
    let options = WatchOptions { poll: true, poll_interval: Duration::from_millis(100), ..WatchOptions::default() };
    let w = Watched::with_options(blog(), options);
    assert_eq!(w.watch.state(), WatchState::Polling);
    w.write("posts/d.md", "---\ntitle: Delta\ndate: 2026-08-01\ntags: [zig]\n---\n");
    fs::remove_file(w.path("posts/b.md")).unwrap();
    w.settles();
    assert_eq!(w.tag("zig"), count("zig", 1));
}

/// Not a test of speed: it measures and prints the time from a write to
/// the change set, with the real watcher (`-- --nocapture` to see it).
#[test]
fn write_to_change_set_latency() {
    let w = Watched::start(blog());
    let mut times = Vec::new();
    for i in 0..50 {
        let started = Instant::now();
        w.write("posts/a.md", A.replace("Alpha body.", &format!("Alpha body, version {i}.")));
        w.change("the write", |s| !s.changed.is_empty());
        times.push(started.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    eprintln!(
        "write → change set, 50 writes, debounce {:?}: median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        WatchOptions::default().debounce,
        ms(times[25]),
        ms(times[47]),
        ms(times[49])
    );
}

/// `apply` alone, without the watcher: whatever is done to the folder, a
/// batch naming the touched paths leaves the blog as a fresh load makes it.
mod apply {
    use std::collections::BTreeSet;
    use std::fs;
    use std::path::PathBuf;

    use hanji::{Batch, OwnWrites, apply};
    use proptest::prelude::*;

    const FILES: [&str; 8] = [
        "posts/a.md",
        "posts/b.md",
        "posts/c/index.md",
        "posts/c/img.png",
        "posts/d/e/index.md",
        "static/logo.png",
        "templates/post.html",
        "posts/a.md~",
    ];
    const FOLDERS: [&str; 3] = ["posts/c", "posts/d", "posts/z"];

    #[derive(Debug, Clone)]
    enum Op {
        Write(usize, u8),
        Remove(usize),
        Rename(usize, usize),
        MoveFolder(usize, usize),
        RemoveFolder(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0..FILES.len(), 0u8..6).prop_map(|(f, v)| Op::Write(f, v)),
            1 => (0..FILES.len()).prop_map(Op::Remove),
            1 => (0..FILES.len(), 0..FILES.len()).prop_map(|(a, b)| Op::Rename(a, b)),
            1 => (0..FOLDERS.len(), 0..FOLDERS.len()).prop_map(|(a, b)| Op::MoveFolder(a, b)),
            1 => (0..FOLDERS.len()).prop_map(Op::RemoveFolder),
        ]
    }

    fn text(version: u8) -> String {
        match version {
            0 => "---\ntitle: [unclosed\n".to_string(),
            1 => "{% if %}".to_string(),
            v => format!(
                "---\ntitle: T{v}\ndate: 2026-03-0{v}\ntags: [t{}, shared]\nslug: s{}\n---\nBody {v}.\n",
                v % 3,
                v % 2
            ),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn any_batch_ends_as_a_fresh_load(ops in prop::collection::vec(op(), 1..12), split in 0usize..12) {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            fs::create_dir_all(root.join("posts")).unwrap();
            fs::write(root.join("posts/a.md"), text(2)).unwrap();
            let mut blog = hanji::load(root).unwrap();
            let own = OwnWrites::new();
            let mut touched = BTreeSet::new();
            for (i, op) in ops.iter().enumerate() {
                let path = |p: &str| root.join(p);
                let parent = |p: &PathBuf| fs::create_dir_all(p.parent().unwrap()).unwrap();
                match op {
                    Op::Write(f, v) => {
                        parent(&path(FILES[*f]));
                        let _ = fs::write(path(FILES[*f]), text(*v));
                        touched.insert(PathBuf::from(FILES[*f]));
                    }
                    Op::Remove(f) => {
                        let _ = fs::remove_file(path(FILES[*f]));
                        touched.insert(PathBuf::from(FILES[*f]));
                    }
                    Op::Rename(a, b) => {
                        parent(&path(FILES[*b]));
                        if fs::rename(path(FILES[*a]), path(FILES[*b])).is_ok() {
                            touched.extend([PathBuf::from(FILES[*a]), PathBuf::from(FILES[*b])]);
                        }
                    }
                    Op::MoveFolder(a, b) => {
                        if a != b && !path(FOLDERS[*b]).exists() && fs::rename(path(FOLDERS[*a]), path(FOLDERS[*b])).is_ok() {
                            touched.extend([PathBuf::from(FOLDERS[*a]), PathBuf::from(FOLDERS[*b])]);
                        }
                    }
                    Op::RemoveFolder(a) => {
                        let _ = fs::remove_dir_all(path(FOLDERS[*a]));
                        touched.insert(PathBuf::from(FOLDERS[*a]));
                    }
                }
                // Some batches end midway, as the debouncer cuts them.
                if i == split {
                    apply(&mut blog, &Batch { paths: std::mem::take(&mut touched), rescan: false }, &own).unwrap();
                }
            }
            apply(&mut blog, &Batch { paths: touched, rescan: false }, &own).unwrap();
            let fresh = hanji::load(root).unwrap();
            prop_assert_eq!(&blog.library, &fresh.library);
            prop_assert_eq!(&blog.assets, &fresh.assets);
            prop_assert_eq!(&blog.templates, &fresh.templates);
            prop_assert_eq!(blog.diagnostics(), fresh.diagnostics());
        }
    }
}

//! The kept index against the index made from every entry: after any run of
//! edits, updated step by step (each step's state read back from disk), it
//! is the same, file for file. (Shards are `SHARD_BYTES` = 512 bytes here,
//! so that small blogs have many.)

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;

use super::*;
use crate::search::entry::Doc;
use crate::search::index::Index;

const WORDS: &[&str] = &[
    "kernel",
    "kernels",
    "scheduling",
    "allocator",
    "latency",
    "queue",
    "nccl",
    "all-reduce",
    "gpu",
    "gpus",
    "trace",
    "checkpoint",
    "warmup",
    "c10d",
    "2.13",
    "p99",
    "the",
    "and",
    "of",
    "PyTorch의",
    "분산",
    "학습을",
    "학습",
    "메모리",
    "복사",
    "병목",
    "측정",
    "네트워크가",
    "정적",
    "사이트",
    "캐시가",
    "결론부터",
    "말하면",
    "Café",
    "naïve",
    "zymurgy",
    "rings",
    "data",
    "move",
    "fast",
    "slow",
    "bandwidth",
    "tail",
    "median",
    "run",
    "running",
    "queries",
    "classes",
    "cache",
    "스케줄러",
    "커널",
    "데이터",
    "지연",
    "시간",
    "2026",
    "x86_64",
];

/// A post made of the words above: its title's, tags' and text's.
#[derive(Debug, Clone, PartialEq)]
struct Post {
    id: String,
    title: Vec<usize>,
    tags: Vec<usize>,
    text: Vec<usize>,
}

impl Post {
    fn doc(&self) -> Doc {
        // Past the words above, made-up ones: a bigger blog's rarer words.
        let word = |w: usize| if w < WORDS.len() * 3 { WORDS[w % WORDS.len()].to_string() } else { format!("w{w}") };
        let words = |ws: &[usize]| ws.iter().map(|w| word(*w)).collect::<Vec<_>>();
        let mut text = String::new();
        for (i, word) in words(&self.text).into_iter().enumerate() {
            text.push_str(&word);
            // Sentences of about seven words, blocks of about twenty.
            text.push_str(if i % 20 == 19 {
                ".\n"
            } else if i % 7 == 6 {
                ". "
            } else {
                " "
            });
        }
        Doc {
            title: words(&self.title).join(" "),
            link: format!("../posts/{}/index.html", self.id),
            date: "2026-12-02".into(),
            tags: words(&self.tags),
            summary: String::new(),
            text,
        }
    }

    fn entry(&self) -> Entry {
        Entry::of(&self.doc())
    }
}

/// One change to the blog, as an author makes it.
#[derive(Debug, Clone)]
enum Edit {
    Body(usize, Vec<usize>),
    Title(usize, Vec<usize>),
    Tags(usize, Vec<usize>),
    /// A post added: among the older ones (at a place) or as the newest.
    Add(usize, Vec<usize>),
    Remove(usize),
    Rename(usize),
    /// Made a draft (out of the index), or published again.
    Draft(usize),
}

fn words(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..WORDS.len() * 3 + 600, 0..max)
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), words(60)).prop_map(|(n, w)| Edit::Body(n, w)),
        1 => (any::<usize>(), words(4)).prop_map(|(n, w)| Edit::Title(n, w)),
        1 => (any::<usize>(), words(3)).prop_map(|(n, w)| Edit::Tags(n, w)),
        2 => (any::<usize>(), words(60)).prop_map(|(n, w)| Edit::Add(n, w)),
        1 => any::<usize>().prop_map(Edit::Remove),
        1 => any::<usize>().prop_map(Edit::Rename),
        1 => any::<usize>().prop_map(Edit::Draft),
    ]
}

/// The blog: its posts oldest first, each shown or a draft.
struct Blog {
    posts: Vec<(Post, bool)>,
    made: usize,
}

impl Blog {
    fn new(texts: Vec<Vec<usize>>) -> Blog {
        let mut blog = Blog { posts: Vec::new(), made: 0 };
        for text in texts {
            let post = blog.post(text);
            blog.posts.push((post, false));
        }
        blog
    }

    fn post(&mut self, text: Vec<usize>) -> Post {
        self.made += 1;
        Post { id: format!("p{}", self.made), title: text.iter().take(2).copied().collect(), tags: Vec::new(), text }
    }

    fn shown(&self) -> Vec<&Post> {
        self.posts.iter().filter(|(_, draft)| !draft).map(|(p, _)| p).collect()
    }

    /// Makes the edit; returns the identity of the post whose page changes.
    fn edit(&mut self, edit: Edit) -> Option<String> {
        let count = self.posts.len();
        let at = |n: usize| (count > 0).then(|| n % count);
        match edit {
            Edit::Body(n, w) => at(n).map(|n| {
                self.posts[n].0.text = w;
                self.posts[n].0.id.clone()
            }),
            Edit::Title(n, w) => at(n).map(|n| {
                self.posts[n].0.title = w;
                self.posts[n].0.id.clone()
            }),
            Edit::Tags(n, w) => at(n).map(|n| {
                self.posts[n].0.tags = w;
                self.posts[n].0.id.clone()
            }),
            Edit::Add(n, w) => {
                let post = self.post(w);
                let id = post.id.clone();
                self.posts.insert(n % (count + 1), (post, false));
                Some(id)
            }
            Edit::Remove(n) => {
                at(n).map(|n| self.posts.remove(n));
                None
            }
            Edit::Rename(n) => at(n).map(|n| {
                self.made += 1;
                self.posts[n].0.id = format!("p{}", self.made);
                self.posts[n].0.id.clone()
            }),
            Edit::Draft(n) => at(n).map(|n| {
                self.posts[n].1 = !self.posts[n].1;
                self.posts[n].0.id.clone()
            }),
        }
    }

    /// The index made from every entry.
    fn cold(&self) -> BTreeMap<String, String> {
        Index::build(self.shown().iter().map(|p| p.entry()).collect()).files
    }
}

/// An output folder's index, as the export keeps it: the files written, the
/// files of the last update only.
#[derive(Default)]
struct Output {
    files: BTreeMap<String, String>,
    exports: usize,
}

impl Output {
    /// Updates the index with the state kept in `cache`: `fresh` are the
    /// posts rendered this time. Returns how many entries `entry_of` made.
    fn export(&mut self, cache: &Path, blog: &Blog, fresh: &[&str]) -> usize {
        let mut kept = KeptIndex::open(cache, Path::new("/site"), "settings", &self.exports.to_string());
        let written = Mutex::new(Vec::new());
        let write = |name: &str, text: &str| {
            written.lock().unwrap().push((name.to_string(), text.to_string()));
            Ok(())
        };
        let shown = blog.shown();
        let update = kept.update(shown.iter().map(|p| p.id.clone()).collect(), &write);
        let every = kept_needs(&update);
        for (n, post) in shown.iter().enumerate() {
            if every || fresh.contains(&post.id.as_str()) {
                update.put(n, post.entry());
            }
        }
        let made = AtomicUsize::new(0);
        let updated = update
            .finish(|n| {
                made.fetch_add(1, Ordering::Relaxed);
                shown[n].entry()
            })
            .unwrap();
        for (name, text) in written.into_inner().unwrap() {
            self.files.insert(name, text);
        }
        let names: BTreeSet<&String> = updated.files.iter().collect();
        self.files.retain(|name, _| names.contains(name));
        assert_eq!(names.len(), self.files.len(), "every file named was written once");
        self.exports += 1;
        kept.commit(&self.exports.to_string()).unwrap();
        made.into_inner()
    }
}

fn kept_needs(update: &Update) -> bool {
    update.kept.needs_every_entry()
}

fn texts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(words(50), 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn edits_updated_step_by_step_give_the_cold_index(texts in texts(), edits in prop::collection::vec(edit(), 1..10)) {
        let cache = tempfile::tempdir().unwrap();
        let mut blog = Blog::new(texts);
        let mut output = Output::default();
        output.export(cache.path(), &blog, &[]);
        prop_assert_eq!(&output.files, &blog.cold());
        for edit in edits {
            let changed = blog.edit(edit.clone());
            let fresh: Vec<&str> = changed.iter().map(String::as_str).collect();
            let made = output.export(cache.path(), &blog, &fresh);
            prop_assert_eq!(made, 0, "the state gives every unchanged post ({:?})", edit);
            prop_assert_eq!(&output.files, &blog.cold(), "after {:?}", edit);
        }
    }
}

/// A blog of `posts` posts of 60 words each, most of them rare.
fn blog_of(posts: usize) -> Blog {
    Blog::new((0..posts).map(|n| (0..60).map(|w| (n * 7919 + w * w * 31) % 20_000).collect()).collect())
}

#[test]
fn one_edit_writes_its_group_and_a_few_shards() {
    let cache = tempfile::tempdir().unwrap();
    let mut blog = blog_of(300);
    let mut output = Output::default();
    output.export(cache.path(), &blog, &[]);
    let before = output.files.clone();
    let shards = before.keys().filter(|f| f.starts_with("index/")).count();
    assert!(shards > 30, "{shards} shards");
    let kept_files = || crate::fs::files_in(&crate::fs::folders_in(&cache.path().join("search"))[0]).len();
    let before_files = kept_files();

    let id = blog.edit(Edit::Body(123, (0..61).map(|w| w * 3 + 9000).collect())).unwrap();
    assert_eq!(output.export(cache.path(), &blog, &[&id]), 0);
    assert_eq!(output.files, blog.cold());
    let changed: Vec<&String> = output.files.keys().filter(|f| before.get(*f) != output.files.get(*f)).collect();
    let groups: Vec<&&String> = changed.iter().filter(|f| f.starts_with("posts/")).collect();
    assert_eq!(groups, [&&"posts/15.js".to_string()], "{changed:?}");
    let changed_shards = changed.iter().filter(|f| f.starts_with("index/")).count();
    assert!((1..shards / 2).contains(&changed_shards), "{changed_shards} of {shards} shards: {changed:?}");
    // The state replaced what it rewrote, no more.
    assert!(kept_files().abs_diff(before_files) <= 3, "{before_files} files kept, then {}", kept_files());
}

#[test]
fn a_new_newest_post_and_the_last_one_gone_keep_the_others_numbers() {
    // After a whole pack, and within one.
    for posts in [PACK * 6, 100] {
        newest_added_and_gone(posts);
    }
}

fn newest_added_and_gone(posts: usize) {
    let cache = tempfile::tempdir().unwrap();
    let mut blog = blog_of(posts);
    let mut output = Output::default();
    output.export(cache.path(), &blog, &[]);
    let id = blog.edit(Edit::Add(posts, vec![1, 2, 3, 4, 5])).unwrap();
    assert_eq!(output.export(cache.path(), &blog, &[&id]), 0);
    assert_eq!(output.files, blog.cold());
    assert!(output.files["index.js"].contains(&format!("\"posts\":{}", posts + 1)));
    blog.edit(Edit::Remove(posts));
    assert_eq!(output.export(cache.path(), &blog, &[]), 0);
    assert_eq!(output.files, blog.cold());
    blog.edit(Edit::Remove(posts - 1));
    assert_eq!(output.export(cache.path(), &blog, &[]), 0);
    assert_eq!(output.files, blog.cold());
}

#[test]
fn many_fresh_posts_make_every_file_and_write_what_changed() {
    let cache = tempfile::tempdir().unwrap();
    let blog = blog_of(200);
    let mut output = Output::default();
    output.export(cache.path(), &blog, &[]);
    let every: Vec<String> = blog.shown().iter().map(|p| p.id.clone()).collect();
    let every: Vec<&str> = every.iter().map(String::as_str).collect();
    let mut kept = KeptIndex::open(cache.path(), Path::new("/site"), "settings", "1");
    assert!(!kept.needs_every_entry());
    let written = AtomicUsize::new(0);
    let write = |_: &str, _: &str| {
        written.fetch_add(1, Ordering::Relaxed);
        Ok(())
    };
    let update = kept.update(every.iter().map(|s| s.to_string()).collect(), &write);
    for (n, post) in blog.shown().iter().enumerate() {
        update.put(n, post.entry());
    }
    let updated = update.finish(|_| unreachable!()).unwrap();
    assert_eq!((updated.written, written.into_inner()), (0, 0), "nothing changed");
    assert_eq!(updated.files.len(), output.files.len());
}

#[test]
fn a_state_of_another_export_settings_or_damaged_is_not_trusted() {
    let cache = tempfile::tempdir().unwrap();
    let mut blog = blog_of(150);
    let mut output = Output::default();
    output.export(cache.path(), &blog, &[]);
    let open = |settings: &str, export: &str| KeptIndex::open(cache.path(), Path::new("/site"), settings, export);
    assert!(!open("settings", "1").needs_every_entry());
    assert!(open("settings", "0").needs_every_entry(), "another export's state");
    assert!(open("other settings", "1").needs_every_entry());
    assert!(KeptIndex::open(cache.path(), Path::new("/elsewhere"), "settings", "1").needs_every_entry());

    // The first pack and every shard damaged: the update still gives the
    // cold index, making the entries the state cannot give.
    let folder = crate::fs::folders_in(&cache.path().join("search")).remove(0);
    let manifest: Manifest = serde_json::from_slice(&std::fs::read(folder.join(MANIFEST)).unwrap()).unwrap();
    for file in manifest.shards.iter().map(|s| &s.file).chain(&manifest.packs[..1]) {
        std::fs::write(folder.join(file), b"not what its name says").unwrap();
    }
    let id = blog.edit(Edit::Body(3, vec![5, 6, 7])).unwrap();
    assert_eq!(output.export(cache.path(), &blog, &[&id]), PACK - 1, "the first pack's other posts");
    assert_eq!(output.files, blog.cold());
    // The state is whole again: every edit from here on is told from it.
    let id = blog.edit(Edit::Body(140, vec![8, 9])).unwrap();
    assert_eq!(output.export(cache.path(), &blog, &[&id]), 0);
    assert_eq!(output.files, blog.cold());

    // A manifest that cannot be read: every entry is asked for.
    std::fs::write(folder.join(MANIFEST), b"{").unwrap();
    assert!(open("settings", &output.exports.to_string()).needs_every_entry());
    output.export(cache.path(), &blog, &[]);
    assert_eq!(output.files, blog.cold());
}

#[test]
fn an_update_not_committed_leaves_the_state_before_it() {
    let cache = tempfile::tempdir().unwrap();
    let mut blog = blog_of(80);
    let mut output = Output::default();
    output.export(cache.path(), &blog, &[]);
    let first = blog.cold();
    // An export that stops before its record is written: its edit is made,
    // and no commit.
    let id = blog.edit(Edit::Body(10, vec![1, 2, 3])).unwrap();
    let mut kept = KeptIndex::open(cache.path(), Path::new("/site"), "settings", "1");
    let nowhere = |_: &str, _: &str| Ok(());
    let update = kept.update(blog.shown().iter().map(|p| p.id.clone()).collect(), &nowhere);
    update.put(10, blog.shown()[10].entry());
    update.finish(|_| unreachable!()).unwrap();
    drop(kept);
    // The next export, from the last one's record: the edit is undone, and
    // the post is unchanged since then.
    blog.posts[10].0.text = blog_of(80).posts[10].0.text.clone();
    assert_eq!(blog.cold(), first);
    assert_eq!(output.export(cache.path(), &blog, &[]), 0);
    assert_eq!(output.files, first, "the state is the last export's, not the unfinished one's");
    assert_eq!(id, "p11");
}

#[test]
fn tokens_lead_to_their_posts_with_their_fields() {
    let doc = |title: &str, tags: &[&str], text: &str| Doc {
        title: title.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        text: text.into(),
        ..Doc::default()
    };
    let index = Index::build(vec![
        Entry::of(&doc("분산 학습", &["nccl"], "Kernels.")),
        Entry::of(&doc("B", &[], "학습을 했다. kernel")),
    ]);
    assert!(index.files["index.js"].contains("\"posts\":2"), "{}", index.files["index.js"]);
    let shards: String = index.files.iter().filter(|(f, _)| f.starts_with("index/")).map(|(_, t)| t.as_str()).collect();
    // Post 0 has it in its title (1) and no text; post 1 in its text.
    assert!(shards.contains("\"학습\":[0,1,1,"), "{shards}");
    assert!(shards.contains("\"kernel\":[0,"), "{shards}");
    assert!(index.files["posts/0.js"].contains("\nhanjiSearch.post(1,{\"title\":\"B\""));
    assert_eq!(Index::build(Vec::new()).files.keys().collect::<Vec<_>>(), ["index.js"]);
}

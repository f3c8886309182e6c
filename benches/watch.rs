//! Benchmarks of following the folder, on the 10,000-post corpus from
//! `bench/gen_corpus.py`: one incremental update (a post's body edited, a
//! post's tags changed) against reading the whole folder again, and the time
//! from writing a file to its change set with the real watcher; and the
//! blog's problems (`hanji check`'s) made whole against kept current after
//! one post's edit (what the app does after each save and keystroke).
//! `cargo bench --bench watch`.

use std::collections::BTreeSet;
use std::fs;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "support/corpus.rs"]
mod support;
use hanji::{Batch, OwnWrites, Update, Watch, WatchOptions, apply, rescan};

/// A copy of the corpus of `posts` posts: these benchmarks write into it.
fn corpus(posts: usize) -> tempfile::TempDir {
    let dir = support::corpus(posts);
    let copy = tempfile::tempdir().unwrap();
    for entry in walkdir::WalkDir::new(&dir) {
        let entry = entry.unwrap();
        let to = copy.path().join(entry.path().strip_prefix(&dir).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&to).unwrap();
        } else {
            fs::copy(entry.path(), &to).unwrap();
        }
    }
    copy
}

fn incremental(c: &mut Criterion) {
    let dir = corpus(10_000);
    let mut blog = hanji::load(dir.path()).unwrap();
    assert_eq!(blog.library.len(), 10_000);
    let own = OwnWrites::new();
    let post = blog.library.posts().nth(5_000).unwrap().clone();
    let before = post.source().to_string();
    let body_edit = format!("{before}\nA paragraph added at the end.\n");
    let tag_edit = before.replacen("tags: [", "tags: [freshly-added, ", 1);
    assert_ne!(before, tag_edit, "the corpus writes tags as a flow list");
    let file = dir.path().join(&post.path);
    let batch = Batch { paths: BTreeSet::from([post.path.clone()]), rescan: false };

    let mut group = c.benchmark_group("watch/apply one change, 10000 posts");
    // Criterion calls each routine more than once: which version is on disk
    // must outlive the calls.
    let mut flip = false;
    for (name, edited) in [("body edited", &body_edit), ("tags changed", &tag_edit)] {
        group.bench_function(name, |b| {
            // Each iteration writes one version of the post (not timed) and
            // applies it: read the file, parse it, update the library, and
            // work out the change set and the stale pages.
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    flip = !flip;
                    fs::write(&file, if flip { edited.as_str() } else { before.as_str() }).unwrap();
                    let started = Instant::now();
                    let set = apply(&mut blog, &batch, &own).unwrap();
                    total += started.elapsed();
                    assert_eq!(set.changed.len(), 1);
                }
                total
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("watch/read everything again, 10000 posts");
    group.sample_size(10);
    group.bench_function("rescan", |b| b.iter(|| rescan(&mut blog, &own).unwrap()));
    group.finish();
}

/// From writing a file to the change set, with the real watcher (its
/// debounce included: 50 ms by default).
fn latency(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let post = "---\ntitle: A\ndate: 2026-01-01\ntags: [a]\n---\nBody\n";
    fs::create_dir(dir.path().join("posts")).unwrap();
    fs::write(dir.path().join("posts/a.md"), post).unwrap();
    let (send, updates) = mpsc::channel();
    let _watch = Watch::start(dir.path(), WatchOptions::default(), move |update| {
        if let Update::Changed(_) = update {
            let _ = send.send(Instant::now());
        }
    })
    .unwrap();
    let mut group = c.benchmark_group("watch");
    group.sample_size(20);
    // Counts every write across criterion's calls, so that each writes new text.
    let mut version = 0;
    group.bench_function("write to change set", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                version += 1;
                let started = Instant::now();
                fs::write(dir.path().join("posts/a.md"), post.replace("Body", &format!("Body {version}"))).unwrap();
                let arrived = updates.recv_timeout(Duration::from_secs(10)).expect("a change set");
                total += arrived - started;
            }
            total
        })
    });
    group.finish();
}

/// The problems of the 10,000-post blog: all of them checked, against kept
/// current by a `Checker` after one post's body was edited (that post
/// rendered again, every other post's links asked again).
fn problems(c: &mut Criterion) {
    let dir = corpus(10_000);
    let mut blog = hanji::load(dir.path()).unwrap();
    let own = OwnWrites::new();
    let post = blog.library.posts().nth(5_000).unwrap().clone();
    let before = post.source().to_string();
    let edited = format!("{before}\nA paragraph with [a link](nowhere.md) added at the end.\n");
    let file = dir.path().join(&post.path);
    let batch = Batch { paths: BTreeSet::from([post.path.clone()]), rescan: false };

    let mut group = c.benchmark_group("check, 10000 posts");
    group.sample_size(10);
    group.bench_function("every problem, from nothing", |b| b.iter(|| hanji::check(&blog)));
    let mut checker = hanji::Checker::default();
    let whole = checker.check(&blog, &blog.library, &hanji::Touched::All);
    assert_eq!(whole, hanji::check(&blog));
    let mut flip = false;
    group.bench_function("kept current after one post's edit", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                flip = !flip;
                fs::write(&file, if flip { edited.as_str() } else { before.as_str() }).unwrap();
                apply(&mut blog, &batch, &own).unwrap();
                let changed = hanji::Touched::Files(BTreeSet::from([post.path.clone()]));
                let started = Instant::now();
                std::hint::black_box(checker.check(&blog, &blog.library, &changed));
                total += started.elapsed();
            }
            total
        })
    });
    group.finish();
    fs::write(&file, &before).unwrap();
}

criterion_group!(benches, incremental, latency, problems);
criterion_main!(benches);

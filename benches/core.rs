//! Benchmarks of the core on the synthetic corpus from `bench/gen_corpus.py`:
//! loading 10,000 posts, rendering one 10 KB post, and updating the library
//! after one post changes. `cargo bench --bench core` (or `make bench`).

use criterion::{Criterion, criterion_group, criterion_main};
use hanji::Post;
use hanji::markdown::{self, Options};

#[path = "support/corpus.rs"]
mod support;
use support::corpus;

fn load(c: &mut Criterion) {
    let dir = corpus(10_000);
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    group.bench_function("10000 posts", |b| {
        b.iter(|| {
            let blog = hanji::load(&dir).unwrap();
            assert_eq!(blog.library.len(), 10_000);
            blog
        })
    });
    group.finish();
}

fn render(c: &mut Criterion) {
    let blog = hanji::load(&corpus(10_000)).unwrap();
    // A post of about 10 KB, as the issue asks.
    let post = blog.library.posts().min_by_key(|p| p.source().len().abs_diff(10 * 1024)).unwrap();
    let mut group = c.benchmark_group("render");
    group.bench_function(format!("one {} byte post", post.source().len()), |b| {
        let options = Options { first_line: post.body_line, source_lines: true, ..Options::default() };
        b.iter(|| markdown::render(post.body(), &options))
    });
    group.bench_function(format!("one {} byte post, highlighted", post.source().len()), |b| {
        let options = Options { first_line: post.body_line, source_lines: true, highlight: true, ..Options::default() };
        b.iter(|| markdown::render(post.body(), &options))
    });
    group.finish();
}

fn update(c: &mut Criterion) {
    let mut library = hanji::load(&corpus(10_000)).unwrap().library;
    let post = library.posts().nth(5_000).unwrap().clone();
    // Two versions of one post with different tags; each iteration swaps one
    // in: re-parse it and adjust the tag index.
    let before = post.source().to_string();
    let after = before.replacen("tags: [", "tags: [freshly-added, ", 1);
    assert_ne!(before, after, "the corpus writes tags as a flow list");
    let mut flip = false;
    c.bench_function("library/update one post of 10000", |b| {
        b.iter(|| {
            flip = !flip;
            library.insert(Post::parse(&post.path, if flip { &after } else { &before }));
        })
    });
}

/// The app's live preview: one keystroke's work on the Rust side, from the
/// post's unsaved text to the page the preview shows (parse, put it in the
/// blog, render through the theme, anchor the lines).
fn preview(c: &mut Criterion) {
    let sample = hanji::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/content"))).unwrap();
    let corpus = hanji::load(&corpus(10_000)).unwrap();
    let mut group = c.benchmark_group("preview");
    for (name, blog) in [("sample blog", &sample), ("10000 posts", &corpus)] {
        let theme = hanji::Theme::new(&blog.templates).0;
        let post = blog.library.posts().min_by_key(|p| p.source().len().abs_diff(10 * 1024)).unwrap();
        let text = format!("{}\nOne more paragraph, typed.\n", post.source());
        group.bench_function(format!("{} byte post, {name}", text.len()), |b| {
            b.iter(|| hanji::post_preview(blog, &theme, None, &post.path, &text))
        });
    }
    group.finish();
}

criterion_group!(benches, load, render, update, preview);
criterion_main!(benches);

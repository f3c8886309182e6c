//! Benchmarks of the core on the synthetic corpus from `bench/gen_corpus.py`:
//! loading 10,000 posts, rendering one 10 KB post, updating the library
//! after one post changes, the app's preview (a keystroke, a page of the
//! site with unsaved text) and `hanji serve`'s map of addresses after a
//! change. `cargo bench --bench core` (or `make bench`).

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
        b.iter(|| markdown::render(&post.body(), &options))
    });
    group.bench_function(format!("one {} byte post, highlighted", post.source().len()), |b| {
        let options = Options { first_line: post.body_line, source_lines: true, highlight: true, ..Options::default() };
        b.iter(|| markdown::render(&post.body(), &options))
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

/// A page of the app's preview in site mode (the home page, the tags, a tag's
/// page) among 10,000 posts, with the author's unsaved text of one post put
/// over the saved one: the text changes before each page (as typing does),
/// and the page shows it.
fn site_pages(c: &mut Criterion) {
    let dir = corpus(10_000);
    let options = hanji::SessionOptions {
        site: hanji::SiteOptions { drafts: true, ..hanji::SiteOptions::default() },
        ..hanji::SessionOptions::default()
    };
    let session = hanji::Session::open(&dir, options, |_, _| {}).unwrap();
    let (post, tag) = {
        let blog = session.blog();
        let post = blog.library.posts().nth(5_000).unwrap().clone();
        let tag = blog.library.tags(true)[0].slug.clone();
        (post, tag)
    };
    let mut group = c.benchmark_group("preview");
    group.sample_size(20);
    for (name, page) in [("home", String::new()), ("tags", "tags/".to_string()), ("tag", format!("tags/{tag}/"))] {
        let mut typed = 0;
        group.bench_function(format!("site page ({name}) with unsaved text, 10000 posts"), |b| {
            b.iter_batched(
                || {
                    typed += 1;
                    let text = format!("{}\nTyped {typed}.\n", post.source());
                    session.preview(&post.path, text);
                },
                |()| {
                    let answer = session.answer(&page);
                    assert_eq!(answer.status, 200);
                    answer
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }
    // The first page after a change on disk makes the copy the next ones use.
    group.bench_function("the copy made after a change on disk (library, addresses), 10000 posts", |b| {
        let blog = session.blog();
        let routes = &session.built().routes;
        b.iter(|| (blog.library.clone(), routes.clone()))
    });
    group.finish();
}

/// What `hanji serve` does to its map of addresses after one post changed on
/// disk (its tags and title), among 10,000 posts: moved for that post, against
/// the whole map made again (as it was before).
fn serve_update(c: &mut Criterion) {
    let mut blog = hanji::load(&corpus(10_000)).unwrap();
    let theme = hanji::Theme::new(&blog.templates).0;
    let options = hanji::SiteOptions::default();
    let post = blog.library.posts().nth(5_000).unwrap().clone();
    let before = post.source().to_string();
    let after = before.replacen("tags: [", "tags: [freshly-added, ", 1).replacen("title: ", "title: Renamed ", 1);
    let mut routes = hanji::Routes::of(&hanji::Site::new(&blog.config, &blog.library, &blog.assets, &theme, options));
    let changed: std::collections::BTreeSet<_> = [post.path.clone()].into();
    let mut group = c.benchmark_group("serve update");
    let mut flip = false;
    group.bench_function("one post changed, 10000 posts: its addresses moved", |b| {
        b.iter(|| {
            flip = !flip;
            blog.library.insert(Post::parse(&post.path, if flip { &after } else { &before }));
            let site = hanji::Site::for_posts(&blog.config, &blog.library, &blog.assets, &theme, options);
            routes.update(&site, &changed);
        })
    });
    group.sample_size(10);
    group.bench_function("one post changed, 10000 posts: the whole map made again", |b| {
        b.iter(|| {
            flip = !flip;
            blog.library.insert(Post::parse(&post.path, if flip { &after } else { &before }));
            hanji::Routes::of(&hanji::Site::new(&blog.config, &blog.library, &blog.assets, &theme, options))
        })
    });
    group.finish();
}

criterion_group!(benches, load, render, update, preview, site_pages, serve_update);
criterion_main!(benches);

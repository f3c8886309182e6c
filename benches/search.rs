//! Benchmarks of the search index on the synthetic corpus from
//! `bench/gen_corpus.py`: making every post's entry (its tokens, weights and
//! passages) from its prose; making the index's files from the entries; and
//! updating the index kept on disk after one post's edit among them all.
//! `cargo bench --bench search` (`HANJI_BENCH_POSTS` posts, 10,000 unless
//! set). The whole export with and without search, and the queries in
//! Chromium, are measured by `bench/search.sh`.

use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};
use hanji::{KeptIndex, SearchIndex, Site, SiteOptions, Theme};
use rayon::prelude::*;

#[path = "support/corpus.rs"]
mod support;
use support::corpus;

fn search(c: &mut Criterion) {
    let posts = std::env::var("HANJI_BENCH_POSTS").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let blog = hanji::load(&corpus(posts)).unwrap();
    let theme = Theme::new(&blog.templates).0;
    let options = SiteOptions { search: true, ..SiteOptions::default() };
    let site = Site::new(&blog.config, &blog.library, &blog.assets, &theme, options);
    let posts: Vec<_> = site.search_posts().collect();
    let texts: Vec<String> = posts.par_iter().map(|post| site.post_text(post)).collect();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function(format!("entries of {} posts", texts.len()), |b| {
        b.iter(|| {
            posts.par_iter().zip(&texts).map(|(post, text)| site.search_entry(post, text.clone())).collect::<Vec<_>>()
        })
    });
    let entries: Vec<_> =
        posts.par_iter().zip(texts.par_iter()).map(|(post, text)| site.search_entry(post, text.clone())).collect();
    group.bench_function(format!("index of {} posts", entries.len()), |b| {
        b.iter(|| SearchIndex::build(entries.clone()))
    });

    // The index kept on disk, then one post's text edited back and forth:
    // each update reads the state, finds what changed, and writes the
    // post's group, the shards of its changed tokens and the state.
    let cache = tempfile::tempdir().unwrap();
    let out = cache.path().join("site");
    let ids: Vec<String> = posts.iter().map(|p| p.path.to_string_lossy().into_owned()).collect();
    let written = AtomicUsize::new(0);
    let write = |_: &str, text: &str| {
        written.fetch_add(text.len(), Ordering::Relaxed);
        Ok(())
    };
    let kept_once = std::sync::Once::new();
    let edited = posts.len() / 2;
    let versions = [
        site.search_entry(posts[edited], texts[edited].clone()),
        site.search_entry(posts[edited], format!("{}\nA new closing line about zymurgy and 분산 학습.", texts[edited])),
    ];
    let mut export = 0;
    group.bench_function(format!("one post edited among {}", posts.len()), |b| {
        kept_once.call_once(|| {
            let mut kept = KeptIndex::open(cache.path(), &out, "bench", "");
            let update = kept.update(ids.clone(), &write);
            entries.par_iter().enumerate().for_each(|(n, entry)| update.put(n, entry.clone()));
            update.finish(|_| unreachable!()).unwrap();
            kept.commit("0").unwrap();
        });
        b.iter(|| {
            let mut kept = KeptIndex::open(cache.path(), &out, "bench", &export.to_string());
            assert!(!kept.needs_every_entry());
            export += 1;
            let update = kept.update(ids.clone(), &write);
            update.put(edited, versions[export % 2].clone());
            let updated = update.finish(|_| unreachable!()).unwrap();
            kept.commit(&export.to_string()).unwrap();
            updated.written
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);

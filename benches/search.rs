//! Benchmarks of the search index on the synthetic corpus from
//! `bench/gen_corpus.py`: making every post's entry (its tokens, weights and
//! passages) from its prose, and making the index's files from the entries.
//! `cargo bench --bench search`. The whole export with and without search,
//! and the queries in Chromium, are measured by `bench/search.sh`.

use criterion::{Criterion, criterion_group, criterion_main};
use hanji::{SearchIndex, Site, SiteOptions, Theme};

#[path = "support/corpus.rs"]
mod support;
use support::corpus;

fn search(c: &mut Criterion) {
    let blog = hanji::load(&corpus(10_000)).unwrap();
    let theme = Theme::new(&blog.templates).0;
    let options = SiteOptions { search: true, ..SiteOptions::default() };
    let site = Site::new(&blog.config, &blog.library, &blog.assets, &theme, options);
    let texts: Vec<String> = site.posts().iter().map(|post| site.post_text(post)).collect();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function(format!("entries of {} posts", texts.len()), |b| {
        b.iter(|| {
            use rayon::prelude::*;
            site.posts()
                .par_iter()
                .zip(&texts)
                .map(|(post, text)| site.search_entry(post, text.clone()))
                .collect::<Vec<_>>()
        })
    });
    let entries: Vec<_> =
        site.posts().iter().zip(&texts).rev().map(|(post, text)| site.search_entry(post, text.clone())).collect();
    group.bench_function(format!("index of {} posts", entries.len()), |b| {
        b.iter(|| SearchIndex::build(entries.clone()))
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);

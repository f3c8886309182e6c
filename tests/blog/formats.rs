//! The front matter forms authors bring from Hugo, Zola, Jekyll and the
//! Next.js starter, read from real files.

use hanji::PostDate;
use jiff::civil::{date, time};

use crate::{BlogTest, p};

#[test]
fn every_form_reads_into_the_same_fields() {
    let blog = BlogTest::fixture("formats").load();
    let lib = &blog.library;

    let crlf = lib.post(&p("posts/crlf-bom.md")).unwrap();
    assert_eq!(crlf.title, "BOM and CRLF");
    assert_eq!(crlf.date, Some(PostDate { date: date(2026, 3, 17), time: Some(time(21, 0, 0, 0)) }));
    assert_eq!(crlf.tags, ["분산 학습", "NCCL"]);
    assert_eq!(crlf.body().trim_end(), "Windows line endings.");

    let zola = lib.post(&p("posts/zola.md")).unwrap();
    assert_eq!(zola.tags, ["nccl", "Rust"]);
    assert_eq!(zola.summary.as_deref(), Some("From the description field."));
    assert_eq!(zola.date.unwrap().date, date(2026, 3, 17));
    assert_eq!(zola.extra["extra"]["series"], "GPU 101");

    let comma = lib.post(&p("posts/comma-tags.md")).unwrap();
    assert_eq!(comma.tags, ["rust", "async"]);
    assert_eq!(comma.date.unwrap().date, date(2025, 9, 14));
    assert_eq!(comma.summary.as_deref(), Some("First paragraph becomes the summary, with a link."));
    assert_eq!(comma.extra["series"], "kept as is");

    let bundle = lib.post(&p("posts/bundle-post/index.md")).unwrap();
    assert!(bundle.bundle);
    assert_eq!(bundle.slug, "bundle-post");
    assert_eq!(hanji::Addresses::new(&blog.config, lib).post(bundle), "posts/bundle-post/");
}

#[test]
fn tags_across_forms_are_counted_once_each() {
    let blog = BlogTest::fixture("formats").load();
    let tags: Vec<String> = blog.library.tags(false).iter().map(|t| format!("{} ({})", t.name, t.count)).collect();
    assert_eq!(tags, ["nccl (2)", "Rust (2)", "분산 학습 (2)", "async (1)"]);
    let korean = blog.library.tag("분산-학습").unwrap();
    assert_eq!(korean.title, "분산 학습");
    let nccl = blog.library.tag("nccl").unwrap();
    assert_eq!(nccl.draft_count, 1);
    // Same day: the later time first.
    assert_eq!(nccl.posts, [p("posts/crlf-bom.md"), p("posts/zola.md")]);
}

#[test]
fn links_and_images_across_forms_resolve() {
    let run = BlogTest::fixture("formats").hanji(&["check"]);
    assert_eq!(run.stdout(), "");
    assert_eq!(run.code(), 0, "{}", run.stderr());
}

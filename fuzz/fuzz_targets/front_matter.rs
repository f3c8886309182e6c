//! The front matter splitter and readers on any text: `parse` (in both
//! dialects) and `Post::parse` must not panic, and what they report must
//! point into the text.

#![no_main]

use std::path::Path;

use hanji::front_matter::{self, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    // A line past the last one is allowed: a problem at the end of the text.
    let lines = text.split('\n').count() + 1;
    for dialect in [Dialect::default(), Dialect { jekyll: true, named_by_file: true }] {
        match front_matter::parse_with(text, dialect) {
            Ok(document) => {
                assert!(text.ends_with(document.body), "the body is the end of the text");
                assert!((1..=lines).contains(&document.body_line), "body line {}", document.body_line);
                for problem in &document.problems {
                    assert!(problem.line <= lines, "problem line {} of {lines}: {problem:?}", problem.line);
                }
            }
            Err(problem) => assert!(problem.line <= lines, "problem line {} of {lines}: {problem:?}", problem.line),
        }
    }
    let library = hanji::Library::new(hanji::Rules::default());
    let config = hanji::Config::default();
    for path in ["posts/a.md", "posts/b/index.md", "_posts/2026-07-17-c.md"] {
        let parsed = library.parse(Path::new(path), text);
        if let Some(post) = &parsed.post {
            assert_eq!(post.source(), text);
            assert!(text.ends_with(post.body()));
            let _ = hanji::Addresses::new(&config, &library).post(post);
            let _ = library.tag_slugs_of(post).count();
        }
        for problem in &parsed.problems {
            assert!(problem.line <= lines, "problem line {} of {lines}: {problem:?}", problem.line);
        }
    }
});

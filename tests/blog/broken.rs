//! Broken blogs: every problem is named with its file and line, and the rest
//! of the blog still loads.

use crate::{BlogTest, p};

fn broken() -> BlogTest {
    BlogTest::fixture("broken")
        .write("posts/huge.md", format!("---\ntitle: Huge\n---\n{}", "word ".repeat(1_300_000)))
        .symlink("posts/loop", ".")
        .symlink("posts/gone.md", "nowhere.md")
}

#[test]
fn check_names_every_problem_and_fails() {
    let run = broken().hanji(&["check"]);
    assert_eq!(run.code(), 1, "{}", run.stdout());

    let (line, hint) = run.line_starting("posts/unclosed.md:1:1: error:");
    assert!(hint.contains("closing `---`"), "{line}\n{hint}");

    let (line, _) = run.line_starting("posts/bad-yaml.md:");
    let at: usize = line.split(':').nth(1).unwrap().parse().unwrap();
    assert!((4..=6).contains(&at), "{line}");
    assert!(line.contains(": error: "), "{line}");

    let (line, hint) = run.line_starting("posts/bad-date.md:3:");
    assert!(line.contains("error") && line.contains("17/07/2026"), "{line}");
    assert!(hint.contains("2026-07-17") || hint.contains("YYYY-MM-DD"), "{hint}");

    let (line, _) = run.line_starting("posts/no-title.md:");
    assert!(line.contains("warning") && line.contains("title"), "{line}");

    for file in ["dup-a", "dup-b"] {
        let (line, hint) = run.line_starting(&format!("posts/{file}.md:1:1: error: slug `same`"));
        assert!(hint.contains("slug"), "{line}\n{hint}");
    }

    let (line, _) = run.line_starting("posts/broken-links.md:7:");
    assert!(line.contains("missing.md"), "{line}");
    assert!(run.stdout().contains("nope.png"), "{}", run.stdout());

    run.line_starting("posts/empty.md:1:1: warning: file is empty");
    let (_, hint) = run.line_starting("posts/latin1.md:5:4: error: file is not UTF-8 text");
    assert!(hint.contains("UTF-8"), "{hint}");
    run.line_starting("posts/huge.md:1:1: error: file is 6.5 MB; posts over 5 MB are not read");
    run.line_starting("posts/loop:1:1: error: symlink loop");
    run.line_starting("posts/gone.md:1:1: error: cannot read");

    // Every problem line is followed by a hint.
    let lines = run.lines();
    for (i, line) in lines.iter().enumerate().filter(|(_, l)| !l.starts_with("  hint: ")) {
        assert!(lines.get(i + 1).is_some_and(|h| h.starts_with("  hint: ")), "no hint after {line}");
    }
}

#[test]
fn the_rest_of_the_blog_still_loads() {
    let blog = broken().load();
    assert!(blog.library.post(&p("posts/good.md")).is_some());
    assert_eq!(blog.library.post(&p("posts/no-title.md")).unwrap().title, "no-title");
    // Listed with its error, never published (see the regression test of it).
    assert!(blog.library.post(&p("posts/unclosed.md")).is_some_and(|post| post.has_errors));
    assert!(blog.library.post(&p("posts/bad-date.md")).unwrap().has_errors);

    let run = broken().hanji(&["tags"]);
    assert_eq!(run.code(), 0);
    // good, also-good and no-title; bad-date has an error and is not published.
    assert_eq!(run.lines(), ["rust (3)", "nccl (1)"]);
}

#[test]
fn a_typo_in_the_settings_is_named_and_the_posts_still_load() {
    let blog = BlogTest::fixture("bad-config");
    let run = blog.hanji(&["check"]);
    assert_eq!(run.code(), 1);
    let (_, hint) = run.line_starting("hanji.toml:2:1: error: unknown setting `local`");
    assert_eq!(hint, "  hint: did you mean `locale`?");
    assert_eq!(blog.hanji(&["tags"]).lines(), ["rust (1)"]);
}

#[test]
fn a_missing_folder_is_a_clear_error() {
    let run =
        std::process::Command::new(env!("CARGO_BIN_EXE_hanji")).args(["check", "/nonexistent/blog"]).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.contains("no blog folder at `/nonexistent/blog`"), "{stderr}");
}

#[test]
fn unknown_subcommands_get_help() {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_hanji")).arg("deploy").output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.contains("unrecognized subcommand 'deploy'"), "{stderr}");
}

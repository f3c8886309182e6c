//! The blog's sources through git, between two copies of one blog (two
//! machines) and a bare repository between them: changed posts named by
//! title, a commit, a push, a pull that brings the other's post; a push
//! refused because the other pushed first; a merge conflict and a pull over
//! uncommitted changes that write nothing over the author's files.

use std::fs;
use std::path::Path;

use crate::BlogTest;
use crate::servers::{bare_repository, git};

/// A copy of the sample blog in a repository whose `origin` is `remote`.
fn first_copy(remote: &Path) -> BlogTest {
    let blog = BlogTest::sample();
    git(blog.path(), &["init", "-q", "-b", "main"]);
    git(blog.path(), &["config", "user.name", "Author"]);
    git(blog.path(), &["config", "user.email", "author@example.com"]);
    git(blog.path(), &["add", "."]);
    git(blog.path(), &["commit", "-q", "-m", "The blog"]);
    git(blog.path(), &["remote", "add", "origin", remote.to_str().unwrap()]);
    git(blog.path(), &["push", "-q", "-u", "origin", "main"]);
    blog
}

/// A second machine's copy, cloned from `remote`.
fn second_copy(remote: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["clone", "-q", remote.to_str().unwrap(), "."]);
    dir
}

fn edit(folder: &Path, post: &str, line: &str) {
    let path = folder.join(post);
    fs::write(&path, fs::read_to_string(&path).unwrap() + line).unwrap();
}

fn commit_and_push(folder: &Path, message: &str) {
    git(folder, &["commit", "-q", "-am", message]);
    git(folder, &["push", "-q", "origin", "main"]);
}

const RUST: &str = "posts/rust-async-cancellation.md";
const RAFT: &str = "posts/distributed-systems-cap-raft-kafka.md";

#[test]
fn two_copies_of_a_blog_commit_push_and_pull() {
    let (_dir, remote) = bare_repository();
    let mine = first_copy(&remote);
    let sources = hanji::Sources::open(mine.path()).expect("the blog is in a repository");
    let status = sources.status(&mine.load()).unwrap();
    assert!(status.changed.is_empty(), "{status:?}");
    assert_eq!((status.branch.as_deref(), status.upstream.as_deref()), (Some("main"), Some("origin/main")));

    edit(mine.path(), RUST, "\nA new paragraph.\n");
    fs::write(mine.path().join("posts/new-note.md"), "---\ntitle: 새 메모\ndate: 2026-07-01\n---\n\n본문.\n").unwrap();
    let status = sources.status(&mine.load()).unwrap();
    let changed: Vec<(&str, hanji::Change)> = status.changed.iter().map(|c| (c.path.as_str(), c.change)).collect();
    assert_eq!(changed, [("posts/new-note.md", hanji::Change::Added), (RUST, hanji::Change::Modified)]);
    assert_eq!(
        status.message,
        "Add \u{201c}새 메모\u{201d}; update \u{201c}Cancellation in async Rust: what happens when a future is dropped\u{201d}"
    );
    sources.commit(&status.message).unwrap();
    let status = sources.status(&mine.load()).unwrap();
    assert!(status.changed.is_empty());
    assert_eq!(status.ahead, 1);
    assert_eq!(sources.push().unwrap(), "pushed main to origin/main");
    assert_eq!(
        git(&remote, &["log", "-1", "--format=%s", "main"]).trim(),
        "Add \u{201c}새 메모\u{201d}; update \u{201c}Cancellation in async Rust: what happens when a future is dropped\u{201d}"
    );

    // The other machine writes; this one pulls it.
    let theirs = second_copy(&remote);
    edit(theirs.path(), RAFT, "\nWritten on the other machine.\n");
    commit_and_push(theirs.path(), "Their edit");
    let pulled = sources.pull().unwrap();
    assert_eq!(pulled.files, [RAFT]);
    assert!(fs::read_to_string(mine.path().join(RAFT)).unwrap().ends_with("Written on the other machine.\n"));
    assert_eq!(sources.pull().unwrap().message, "already up to date");

    // They push first: this push is refused, and a pull then merges.
    edit(theirs.path(), RAFT, "\nAnother of theirs.\n");
    commit_and_push(theirs.path(), "Their second edit");
    edit(mine.path(), RUST, "\nMine, meanwhile.\n");
    sources.commit("My edit").unwrap();
    let refused = sources.push().unwrap_err();
    assert_eq!(refused.fault, hanji::Fault::Rejected);
    assert!(refused.message.contains("origin/main has commits this copy does not have"), "{}", refused.message);
    assert_eq!(refused.hint, "Pull first, then Push again");
    let merged = sources.pull().unwrap();
    assert_eq!(merged.files, [RAFT]);
    sources.push().unwrap();
    let log = git(&remote, &["log", "-3", "--format=%s", "main"]);
    assert!(log.starts_with("Merge origin/main into main\n"), "{log}");
}

#[test]
fn a_pull_never_writes_over_the_authors_text() {
    let (_dir, remote) = bare_repository();
    let mine = first_copy(&remote);
    let sources = hanji::Sources::open(mine.path()).unwrap();
    let theirs = second_copy(&remote);
    edit(theirs.path(), RUST, "\nTheirs.\n");
    commit_and_push(theirs.path(), "Their edit");

    // Uncommitted changes to the post the pull would write: nothing written.
    edit(mine.path(), RUST, "\nMine, not committed.\n");
    let before = fs::read_to_string(mine.path().join(RUST)).unwrap();
    let refused = sources.pull().unwrap_err();
    assert!(refused.message.contains("pulling would write over changes you have not committed"), "{}", refused.message);
    assert_eq!(refused.hint, "commit your changes first (Commit), then pull again");
    assert_eq!(fs::read_to_string(mine.path().join(RUST)).unwrap(), before);

    // Committed, both sides changed the same lines: a conflict, shown, and
    // the author's file is as they left it (no conflict markers).
    sources.commit("Mine").unwrap();
    let conflict = sources.pull().unwrap_err();
    assert_eq!(conflict.fault, hanji::Fault::Rejected);
    assert!(conflict.message.contains(&format!("changed {RUST}")), "{}", conflict.message);
    assert_eq!(fs::read_to_string(mine.path().join(RUST)).unwrap(), before);
    assert!(sources.status(&mine.load()).unwrap().changed.is_empty(), "nothing was staged or written");
}

#[test]
fn a_pull_reaches_the_open_blog_through_the_watcher_as_an_outside_edit() {
    let (_dir, remote) = bare_repository();
    let mine = first_copy(&remote);
    let seen: std::sync::Arc<std::sync::Mutex<Vec<(String, bool)>>> = Default::default();
    let session = {
        let seen = seen.clone();
        hanji::Session::open(mine.path(), hanji::SessionOptions::default(), move |update, _| {
            if let hanji::Update::Changed(set) = update {
                let changes = set.changed.iter().map(|c| (c.path.display().to_string(), c.external));
                seen.lock().unwrap().extend(changes);
            }
        })
        .unwrap()
    };
    let theirs = second_copy(&remote);
    edit(theirs.path(), RAFT, "\nFrom the other machine.\n");
    commit_and_push(theirs.path(), "Theirs");
    hanji::Sources::open(mine.path()).unwrap().pull().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !seen.lock().unwrap().contains(&(RAFT.to_string(), true)) {
        assert!(
            std::time::Instant::now() < deadline,
            "the watcher did not report the pulled post: {:?}",
            seen.lock().unwrap()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let post = session.blog().library.post(Path::new(RAFT)).map(|p| p.source().to_string()).unwrap();
    assert!(post.ends_with("From the other machine.\n"), "the open blog holds the pulled text");
}

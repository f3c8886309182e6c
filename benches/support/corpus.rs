//! The synthetic corpus the benchmarks run on, from `bench/gen_corpus.py`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus of `posts` posts, generated once into the target folder.
pub fn corpus(posts: usize) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let dir = target.join(format!("bench-corpus/c{posts}"));
    if !dir.join("posts").is_dir() {
        let status = Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/gen_corpus.py"))
            .args(["--posts", &posts.to_string(), "--seed", "1", "--format", "yaml", "--out"])
            .arg(&dir)
            .status()
            .expect("python3 runs bench/gen_corpus.py");
        assert!(status.success(), "gen_corpus.py failed");
    }
    dir
}

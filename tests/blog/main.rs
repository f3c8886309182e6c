//! Integration tests of the core and the `hanji` command on real folders.
//!
//! Fixture blogs live in `tests/fixtures/<name>/`; each test copies one into a
//! temp folder (`BlogTest::fixture`), may add files that git cannot hold
//! (symlinks, huge files), then loads it or runs `hanji` on it.

mod broken;
mod browser;
mod ceilings;
mod differential;
mod differential_hexo;
mod export;
mod folders;
mod formats;
mod guide;
mod hostile;
mod images;
mod import;
mod import_images;
mod import_links;
mod incremental;
mod layers;
mod layouts;
mod library;
mod publish;
mod readers;
mod regression;
mod sample;
mod save;
mod search;
mod serve;
mod servers;
mod shortcodes;
mod sources;
mod untrusted;
mod watch;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hanji::Blog;

pub struct BlogTest {
    dir: tempfile::TempDir,
    /// The cache folder of the `hanji` it runs, its own.
    cache: tempfile::TempDir,
}

impl BlogTest {
    /// A copy of `tests/fixtures/<name>`.
    pub fn fixture(name: &str) -> Self {
        Self::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name))
    }

    /// A copy of the sample blog in `content/`.
    pub fn sample() -> Self {
        Self::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("content"))
    }

    /// An empty blog folder, for tests that write their own posts.
    pub fn empty() -> Self {
        Self { dir: tempfile::tempdir().unwrap(), cache: tempfile::tempdir().unwrap() }
    }

    /// A copy of the blog folder at `source`.
    pub fn copy_of(source: &Path) -> Self {
        let dir = tempfile::tempdir().unwrap();
        for entry in walkdir::WalkDir::new(source) {
            let entry = entry.unwrap();
            let to = dir.path().join(entry.path().strip_prefix(source).unwrap());
            if entry.file_type().is_dir() {
                fs::create_dir_all(&to).unwrap();
            } else {
                fs::copy(entry.path(), &to).unwrap();
            }
        }
        Self { dir, cache: tempfile::tempdir().unwrap() }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(self, relative: &str, contents: impl AsRef<[u8]>) -> Self {
        let path = self.path().join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
        self
    }

    pub fn symlink(self, relative: &str, target: &str) -> Self {
        std::os::unix::fs::symlink(target, self.path().join(relative)).unwrap();
        self
    }

    /// The cache folder of the test's own that Hanji is run with.
    pub fn cache_dir(&self) -> &Path {
        self.cache.path()
    }

    pub fn load(&self) -> Blog {
        hanji::load(self.path()).unwrap()
    }

    /// Runs `hanji ARGS… DIR` with this blog as DIR, from inside it so paths
    /// print relative, with a cache folder of the test's own.
    pub fn hanji(&self, args: &[&str]) -> Run {
        self.hanji_with(&[], args)
    }

    /// `hanji ARGS… DIR` with these environment variables set too (a fixed
    /// time in `HANJI_NOW`), and a cache folder of the test's own.
    pub fn hanji_with(&self, env: &[(&str, &str)], args: &[&str]) -> Run {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hanji"));
        command.args(args).arg(".").current_dir(self.path()).env("HANJI_CACHE_DIR", self.cache.path());
        for (name, value) in env {
            command.env(name, value);
        }
        Run(command.output().unwrap())
    }
}

pub struct Run(pub Output);

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8(self.0.stdout.clone()).unwrap()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8(self.0.stderr.clone()).unwrap()
    }

    pub fn code(&self) -> i32 {
        self.0.status.code().unwrap()
    }

    pub fn lines(&self) -> Vec<String> {
        self.stdout().lines().map(str::to_string).collect()
    }

    /// The one output line that starts with `prefix`, with the line after it
    /// (the hint); fails listing all the output if there is none.
    pub fn line_starting(&self, prefix: &str) -> (String, String) {
        let lines = self.lines();
        let index = lines
            .iter()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starts with {prefix:?} in:\n{}", self.stdout()));
        (lines[index].clone(), lines.get(index + 1).cloned().unwrap_or_default())
    }
}

/// Runs `hanji export` of `blog` into `out` (quiet).
pub fn export(blog: &BlogTest, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["export", "--quiet", "--out", out.to_str().unwrap()];
    args.extend(extra);
    blog.hanji(&args)
}

pub fn read(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text a reader sees in an HTML page: tags dropped, spaces collapsed.
pub fn visible_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace("( ", "(").replace(" )", ")")
}

/// Every file under `dir`, relative, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

pub fn p(path: &str) -> PathBuf {
    PathBuf::from(path)
}

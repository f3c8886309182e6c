//! Keeps every path the app is given inside the blog folder. The app's web
//! side sends paths; whatever it sends, nothing outside the blog is read or
//! written: no `..`, no absolute or Windows-style paths, no symlink that
//! leads out.

use std::path::{Component, Path, PathBuf};

use super::AuthorError;

/// `given` (relative to `root`, with `/` between names) as a path relative to
/// the blog folder, if it stays inside it, following symlinks on the way.
pub fn inside(root: &Path, given: &str) -> Result<PathBuf, AuthorError> {
    let outside = || AuthorError::Outside { path: given.to_string() };
    let looks_absolute = given.starts_with('/') || given.as_bytes().get(1) == Some(&b':');
    if given.is_empty() || given.contains(['\0', '\\']) || looks_absolute {
        return Err(outside());
    }
    let mut relative = PathBuf::new();
    for name in given.split('/') {
        match name {
            "" | "." => {}
            ".." => return Err(outside()),
            name => relative.push(name),
        }
    }
    if relative.as_os_str().is_empty() || relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(outside());
    }
    // The deepest part of the path that exists, with its symlinks resolved,
    // must still be in the (resolved) blog folder.
    let root = root.canonicalize().map_err(AuthorError::io(root))?;
    let mut existing = root.join(&relative);
    while existing.symlink_metadata().is_err() {
        if !existing.pop() {
            return Err(outside());
        }
    }
    // A symlink loop or a link to nowhere does not resolve: refused too.
    match existing.canonicalize() {
        Ok(resolved) if resolved.starts_with(&root) => Ok(relative),
        _ => Err(outside()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blog() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("posts/bundle")).unwrap();
        std::fs::write(dir.path().join("posts/a.md"), "a").unwrap();
        dir
    }

    #[test]
    fn paths_inside_are_kept_and_tidied() {
        let dir = blog();
        assert_eq!(inside(dir.path(), "posts/a.md").unwrap(), Path::new("posts/a.md"));
        assert_eq!(inside(dir.path(), "./posts//a.md").unwrap(), Path::new("posts/a.md"));
        // Files that do not exist yet (a new post) are fine too.
        assert_eq!(inside(dir.path(), "posts/new/index.md").unwrap(), Path::new("posts/new/index.md"));
        // An encoded name is a name, not a way out.
        assert_eq!(inside(dir.path(), "posts/%2e%2e/x.md").unwrap(), Path::new("posts/%2e%2e/x.md"));
    }

    #[test]
    fn ways_out_are_refused() {
        let dir = blog();
        for given in [
            "",
            ".",
            "..",
            "../x.md",
            "posts/../../x.md",
            "posts/bundle/../../../etc/passwd",
            "/etc/passwd",
            "C:/Windows/win.ini",
            "c:x",
            "posts\\..\\..\\x.md",
            "\\\\server\\share",
            "posts/a\0.md",
        ] {
            let error = inside(dir.path(), given).unwrap_err();
            assert!(matches!(error, AuthorError::Outside { .. }), "{given:?} gave {error}");
        }
    }

    #[test]
    fn symlinks_that_lead_out_are_refused() {
        let dir = blog();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(elsewhere.path().join("secret.md"), "s").unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("posts/out")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path().join("secret.md"), dir.path().join("posts/s.md")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("posts/loop"), dir.path().join("posts/loop")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("posts/a.md"), dir.path().join("posts/in.md")).unwrap();
        for given in ["posts/out/secret.md", "posts/out/new.md", "posts/s.md", "posts/loop", "posts/loop/x.md"] {
            assert!(inside(dir.path(), given).is_err(), "{given} was let through");
        }
        // A symlink that stays inside is followed.
        assert_eq!(inside(dir.path(), "posts/in.md").unwrap(), Path::new("posts/in.md"));
    }
}

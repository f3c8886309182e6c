//! Deleting a post never destroys it: it goes to the system trash, or where
//! there is none, to `.hanji/trash/` in the blog folder (which Hanji skips).

use std::path::{Path, PathBuf};

use super::AuthorError;
use crate::content::file::PostFile;
use crate::fs::{self, OwnWrites};

/// Where deleted posts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrashCan {
    /// The desktop's trash, falling back to the blog's own.
    System,
    /// `.hanji/trash/` in the blog folder.
    Blog,
}

pub const BLOG_TRASH: &str = ".hanji/trash";

/// Moves the post at `path` (a bundle: its whole folder) to the trash and
/// says where it went. The post's removal is Hanji's own (`own`).
pub fn trash_post(root: &Path, path: &Path, can: TrashCan, own: &OwnWrites) -> Result<String, AuthorError> {
    if !root.join(path).is_file() {
        return Err(AuthorError::NotFound(path.to_path_buf()));
    }
    let what = PostFile::new(path).bundle_folder().unwrap_or(path).to_path_buf();
    own.expect_removal(path);
    if can == TrashCan::System && fs::move_to_system_trash(&root.join(&what)).is_ok() {
        return Ok(format!("Moved `{}` to the trash.", what.display()));
    }
    let stamp = jiff::Timestamp::now().strftime("%Y%m%d-%H%M%S").to_string();
    // Two deletions in one second each get their own folder.
    let place: PathBuf = (1..)
        .map(|n| if n == 1 { stamp.clone() } else { format!("{stamp}-{n}") })
        .map(|folder| Path::new(BLOG_TRASH).join(folder).join(&what))
        .find(|place| !fs::exists(&root.join(place)))
        .expect("a free place in the trash");
    fs::move_to(&root.join(&what), &root.join(&place)).map_err(AuthorError::io(&what))?;
    Ok(format!("Moved `{}` to `{}`.", what.display(), place.display()))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn a_post_goes_to_the_blogs_trash_whole() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("posts/b")).unwrap();
        fs::write(dir.path().join("posts/b/index.md"), "bundle text").unwrap();
        fs::write(dir.path().join("posts/b/d.png"), "png").unwrap();
        fs::write(dir.path().join("posts/a.md"), "a text").unwrap();
        let said = trash_post(dir.path(), Path::new("posts/b/index.md"), TrashCan::Blog, &OwnWrites::new()).unwrap();
        assert!(!dir.path().join("posts/b").exists());
        let said_a = trash_post(dir.path(), Path::new("posts/a.md"), TrashCan::Blog, &OwnWrites::new()).unwrap();
        // The same name deleted again at once does not replace the first.
        fs::write(dir.path().join("posts/a.md"), "a again").unwrap();
        trash_post(dir.path(), Path::new("posts/a.md"), TrashCan::Blog, &OwnWrites::new()).unwrap();
        assert!(!dir.path().join("posts/a.md").exists());
        // Everything is still there, in the trash, byte for byte.
        let kept: Vec<(String, String)> = walkdir::WalkDir::new(dir.path().join(BLOG_TRASH))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| (e.file_name().to_string_lossy().into_owned(), fs::read_to_string(e.path()).unwrap()))
            .collect();
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert!(kept.contains(&("a.md".into(), "a again".into())));
        assert!(kept.contains(&("index.md".into(), "bundle text".into())));
        assert!(kept.contains(&("a.md".into(), "a text".into())));
        assert!(said.contains(".hanji/trash/") && said_a.contains("posts/a.md"), "{said} {said_a}");
        assert!(matches!(
            trash_post(dir.path(), Path::new("posts/a.md"), TrashCan::Blog, &OwnWrites::new()),
            Err(AuthorError::NotFound(_))
        ));
    }
}

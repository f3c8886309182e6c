//! Deleting a post never destroys it: it goes to the system trash, or where
//! there is none, to `.hanji/trash/` in the blog folder (which Hanji skips).

use std::fs;
use std::path::{Path, PathBuf};

use super::AuthorError;
use super::rename::bundle_folder;

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
/// says where it went.
pub fn trash_post(root: &Path, path: &Path, can: TrashCan) -> Result<String, AuthorError> {
    if !root.join(path).is_file() {
        return Err(AuthorError::NotFound(path.to_path_buf()));
    }
    let what = bundle_folder(path).unwrap_or_else(|| path.to_path_buf());
    if can == TrashCan::System && trash::delete(root.join(&what)).is_ok() {
        return Ok(format!("Moved `{}` to the trash.", what.display()));
    }
    let stamp = jiff::Timestamp::now().strftime("%Y%m%d-%H%M%S").to_string();
    // Two deletions in one second each get their own folder.
    let place: PathBuf = (1..)
        .map(|n| if n == 1 { stamp.clone() } else { format!("{stamp}-{n}") })
        .map(|folder| Path::new(BLOG_TRASH).join(folder).join(&what))
        .find(|place| root.join(place).symlink_metadata().is_err())
        .expect("a free place in the trash");
    let target = root.join(&place);
    fs::create_dir_all(target.parent().expect("a folder")).map_err(AuthorError::io(&place))?;
    fs::rename(root.join(&what), &target).map_err(AuthorError::io(&what))?;
    Ok(format!("Moved `{}` to `{}`.", what.display(), place.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_post_goes_to_the_blogs_trash_whole() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("posts/b")).unwrap();
        fs::write(dir.path().join("posts/b/index.md"), "bundle text").unwrap();
        fs::write(dir.path().join("posts/b/d.png"), "png").unwrap();
        fs::write(dir.path().join("posts/a.md"), "a text").unwrap();
        let said = trash_post(dir.path(), Path::new("posts/b/index.md"), TrashCan::Blog).unwrap();
        assert!(!dir.path().join("posts/b").exists());
        let said_a = trash_post(dir.path(), Path::new("posts/a.md"), TrashCan::Blog).unwrap();
        // The same name deleted again at once does not replace the first.
        fs::write(dir.path().join("posts/a.md"), "a again").unwrap();
        trash_post(dir.path(), Path::new("posts/a.md"), TrashCan::Blog).unwrap();
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
            trash_post(dir.path(), Path::new("posts/a.md"), TrashCan::Blog),
            Err(AuthorError::NotFound(_))
        ));
    }
}

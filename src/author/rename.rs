//! Renaming a post: a new slug, so a new file name (or bundle folder name),
//! and the `slug` field too if the post sets one. The text is kept, and so is
//! what the layout needs of the name (see `PostFile::renamed`).

use std::path::Path;

use super::new_post::NewPost;
use super::{AuthorError, save};
use crate::content::file::{PostFile, is_post};
use crate::front_matter::{self, FieldValue, set_field};
use crate::fs::{self, OwnWrites};
use crate::tool::Layout;

/// Moves the post at `path` to the file its new slug names: `posts/a.md` to
/// `posts/<slug>.md`, a bundle's folder `posts/a/` to `posts/<slug>/`, a
/// Jekyll post `_posts/2026-07-17-a.md` to `_posts/2026-07-17-<slug>.md`.
pub fn rename_post(
    root: &Path,
    layout: &Layout,
    path: &Path,
    slug: &str,
    own: &OwnWrites,
) -> Result<NewPost, AuthorError> {
    let slug = crate::slug::slug(slug.trim());
    if slug.is_empty() {
        return Err(AuthorError::Invalid("a slug needs at least one letter or digit".into()));
    }
    if !is_post(layout, path) || !root.join(path).is_file() {
        return Err(AuthorError::NotFound(path.to_path_buf()));
    }
    let text = fs::read_string(&root.join(path)).map_err(AuthorError::io(path))?;
    let (from, to, new_path) = PostFile::new(path).renamed(&slug);
    if from == to {
        return Ok(NewPost { path: path.to_path_buf(), text });
    }
    if fs::exists(&root.join(&to)) {
        return Err(AuthorError::Exists(to));
    }
    // A `slug` in the front matter would win over the file name: it changes too.
    let sets_slug = front_matter::parse(&text).is_ok_and(|doc| doc.front_matter.slug.is_some());
    let text = if sets_slug {
        let edited = set_field(&text, "slug", &FieldValue::Text(slug.clone()))
            .map_err(|source| AuthorError::FrontMatter { path: path.to_path_buf(), source })?;
        save::save_post(root, path, &edited, None, own)?;
        edited
    } else {
        text
    };
    own.expect_removal(path);
    own.expect(&new_path, text.as_bytes());
    fs::move_to(&root.join(&from), &root.join(&to)).map_err(AuthorError::io(&from))?;
    Ok(NewPost { path: new_path, text })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let file = root.join(path);
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(file, text).unwrap();
    }

    #[test]
    fn a_post_file_is_renamed_and_its_text_kept() {
        let dir = tempfile::tempdir().unwrap();
        let text = "---\ntitle: A\r\ntags: [x]\n---\nBody\n";
        write(dir.path(), "posts/a.md", text);
        let renamed =
            rename_post(dir.path(), &Layout::default(), Path::new("posts/a.md"), "Better Name", &OwnWrites::new())
                .unwrap();
        assert_eq!(renamed.path, Path::new("posts/better-name.md"));
        assert_eq!(fs::read_to_string(dir.path().join("posts/better-name.md")).unwrap(), text);
        assert!(!dir.path().join("posts/a.md").exists());
    }

    #[test]
    fn a_bundle_moves_with_its_images_and_a_slug_field_follows() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "posts/b/index.md", "---\ntitle: B\nslug: b\n---\n![d](d.png)\n");
        write(dir.path(), "posts/b/d.png", "png");
        let renamed =
            rename_post(dir.path(), &Layout::default(), Path::new("posts/b/index.md"), "새-이름", &OwnWrites::new())
                .unwrap();
        assert_eq!(renamed.path, Path::new("posts/새-이름/index.md"));
        assert_eq!(renamed.text, "---\ntitle: B\nslug: 새-이름\n---\n![d](d.png)\n");
        assert_eq!(fs::read_to_string(dir.path().join("posts/새-이름/index.md")).unwrap(), renamed.text);
        assert!(dir.path().join("posts/새-이름/d.png").exists());
        assert!(!dir.path().join("posts/b").exists());
    }

    #[test]
    fn a_taken_name_or_an_empty_slug_is_refused_and_nothing_moves() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "posts/a.md", "A");
        write(dir.path(), "posts/b.md", "B");
        let own = OwnWrites::new();
        assert!(matches!(
            rename_post(dir.path(), &Layout::default(), Path::new("posts/a.md"), "b", &own),
            Err(AuthorError::Exists(_))
        ));
        assert!(matches!(
            rename_post(dir.path(), &Layout::default(), Path::new("posts/a.md"), "!!", &own),
            Err(AuthorError::Invalid(_))
        ));
        assert!(matches!(
            rename_post(dir.path(), &Layout::default(), Path::new("posts/c.md"), "d", &own),
            Err(AuthorError::NotFound(_))
        ));
        assert_eq!(fs::read_to_string(dir.path().join("posts/a.md")).unwrap(), "A");
        assert_eq!(fs::read_to_string(dir.path().join("posts/b.md")).unwrap(), "B");
    }
}

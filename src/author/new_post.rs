//! Starting a post: a file named after its title where the blog's layout
//! keeps posts (see `content::file::new_post_path`), with the front matter the
//! author fills in next (title, today's date, no tags yet, a draft).

use std::path::{Path, PathBuf};

use super::{AuthorError, save};
use crate::config::Config;
use crate::content::{Library, PostDate, file};
use crate::front_matter::{FieldValue, set_field};
use crate::fs::{self, OwnWrites};

/// The new post's path and text.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPost {
    pub path: PathBuf,
    pub text: String,
}

/// Writes a new post titled `title`: `posts/<slug>.md`, or
/// `posts/<slug>/index.md` as a bundle. A slug already taken (by a file there
/// or a post of `library`) gets `-2`, `-3`….
pub fn new_post(
    root: &Path,
    config: &Config,
    library: &Library,
    title: &str,
    bundle: bool,
    today: jiff::civil::Date,
    own: &OwnWrites,
) -> Result<NewPost, AuthorError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(AuthorError::Invalid("a new post needs a title".into()));
    }
    let base = match crate::slug::slug(title) {
        slug if slug.is_empty() => "post".to_string(),
        slug => slug,
    };
    let path_for = |slug: &str, bundle: bool| {
        file::new_post_path(&config.layout, config.layout.new_posts_dir(&config.posts_dir), slug, bundle, today)
    };
    // `a.md` and the bundle `a/` would both be the post `a`.
    let taken = |slug: &str| {
        let [single, bundled] = [false, true].map(|bundle| path_for(slug, bundle));
        let folder = (bundled != single).then(|| bundled.parent().map(Path::to_path_buf)).flatten();
        fs::exists(&root.join(single))
            || folder.is_some_and(|folder| fs::exists(&root.join(folder)))
            || library.post_by_slug(slug).is_some()
    };
    let slug = (1..)
        .map(|n| if n == 1 { base.clone() } else { format!("{base}-{n}") })
        .find(|slug| !taken(slug))
        .expect("a free slug");
    let path = path_for(&slug, bundle);
    let text = front_matter(title, today).map_err(|source| AuthorError::FrontMatter { path: path.clone(), source })?;
    save::save_post(root, &path, &text, None, own)?;
    Ok(NewPost { path, text })
}

/// `title`, `date`, `tags`, `draft`, written by the same editor the form uses.
fn front_matter(title: &str, today: jiff::civil::Date) -> Result<String, crate::front_matter::EditError> {
    let mut text = set_field("", "title", &FieldValue::Text(title.to_string()))?;
    text = set_field(&text, "date", &FieldValue::Date(PostDate { date: today, time: None }))?;
    text = set_field(&text, "tags", &FieldValue::List(Vec::new()))?;
    text = set_field(&text, "draft", &FieldValue::Bool(true))?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Post;

    #[test]
    fn a_new_post_reads_back_as_a_dated_untagged_draft() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::default();
        let today = jiff::civil::date(2026, 11, 30);
        let own = OwnWrites::new();
        let made =
            new_post(dir.path(), &config, &Library::default(), "  분산 학습: \"NCCL\" 입문 ", false, today, &own)
                .unwrap();
        assert_eq!(made.path, Path::new("posts/분산-학습-nccl-입문.md"));
        assert_eq!(std::fs::read_to_string(dir.path().join(&made.path)).unwrap(), made.text);
        let post = Post::parse(&made.path, &made.text).post.unwrap();
        assert_eq!(post.title, "분산 학습: \"NCCL\" 입문");
        assert_eq!(post.date.unwrap().date, today);
        assert!(post.tags.is_empty());
        assert!(post.draft);
        assert!(!post.has_errors);
    }

    #[test]
    fn a_taken_slug_gets_a_number_and_bundles_get_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::default();
        let today = jiff::civil::date(2026, 1, 2);
        let own = OwnWrites::new();
        let first = new_post(dir.path(), &config, &Library::default(), "Hello", false, today, &own).unwrap();
        let second = new_post(dir.path(), &config, &Library::default(), "Hello", true, today, &own).unwrap();
        let third = new_post(dir.path(), &config, &Library::default(), "Hello", false, today, &own).unwrap();
        assert_eq!(first.path, Path::new("posts/hello.md"));
        assert_eq!(second.path, Path::new("posts/hello-2/index.md"));
        assert_eq!(third.path, Path::new("posts/hello-3.md"));
        assert!(matches!(
            new_post(dir.path(), &config, &Library::default(), "  ", false, today, &own),
            Err(AuthorError::Invalid(_))
        ));
    }
}

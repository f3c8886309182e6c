//! Renaming a tag across every post that has it, or merging it into another
//! tag: only each post's tags field changes, and the whole change can be put
//! back as one batch.

use std::path::{Path, PathBuf};

use super::{AuthorError, save};
use crate::content::Library;
use crate::front_matter::{self, FieldValue, set_field};
use crate::fs::{self, OwnWrites};
use crate::slug::tag_slug;

/// What a rename will change, to show before it is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetagPlan {
    pub from: String,
    pub to: String,
    /// `to` is another tag already: the two become one.
    pub merge: bool,
    pub files: Vec<PathBuf>,
}

/// A rename made: the tag's names, and each file's text before and after, to put it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetagBatch {
    pub from: String,
    pub to: String,
    pub files: Vec<(PathBuf, String, String)>,
}

/// The posts (drafts too) that have the tag `from` (by slug).
pub fn plan_retag(library: &Library, from: &str, to: &str) -> Result<RetagPlan, AuthorError> {
    let tag_slug = |name: &str| library.tag_slug(name);
    let (from_slug, to_slug) = (tag_slug(from), tag_slug(to));
    if to_slug.is_empty() {
        return Err(AuthorError::Invalid("a tag needs at least one letter or digit".into()));
    }
    let files: Vec<PathBuf> =
        library.posts().filter(|p| p.tags.iter().any(|t| tag_slug(t) == from_slug)).map(|p| p.path.clone()).collect();
    if files.is_empty() {
        return Err(AuthorError::Invalid(format!("no post has the tag `{from}`")));
    }
    let merge = from_slug != to_slug && library.posts().any(|p| p.tags.iter().any(|t| tag_slug(t) == to_slug));
    Ok(RetagPlan { from: from.to_string(), to: to.trim().to_string(), merge, files })
}

/// Makes the plan: every file's new text is worked out before any is
/// written, so a post whose front matter cannot be edited stops the rename
/// with nothing changed.
/// `keep` is given each file's text before and after, before it is written.
pub fn retag(
    root: &Path,
    plan: &RetagPlan,
    own: &OwnWrites,
    keep: &dyn Fn(&Path, &str, &str),
) -> Result<RetagBatch, AuthorError> {
    let from_slug = tag_slug(&plan.from);
    let mut files = Vec::with_capacity(plan.files.len());
    for path in &plan.files {
        let before = fs::read_string(&root.join(path)).map_err(AuthorError::io(path))?;
        let edit_error = |source| AuthorError::FrontMatter { path: path.clone(), source };
        let document =
            front_matter::parse(&before).map_err(|problem| edit_error(front_matter::EditError::Unreadable(problem)))?;
        let mut tags: Vec<String> = Vec::new();
        for tag in document.front_matter.tags {
            let tag = if tag_slug(&tag) == from_slug { plan.to.clone() } else { tag };
            if !tags.iter().any(|t| tag_slug(t) == tag_slug(&tag)) {
                tags.push(tag);
            }
        }
        let after = set_field(&before, "tags", &FieldValue::List(tags)).map_err(edit_error)?;
        if after != before {
            files.push((path.clone(), before, after));
        }
    }
    for (path, before, after) in &files {
        keep(path, before, after);
        save::save_post(root, path, after, None, own)?;
    }
    Ok(RetagBatch { from: plan.from.clone(), to: plan.to.clone(), files })
}

/// Puts back each file of `batch` that still holds what the rename wrote;
/// a file edited since is left as it is. Returns the files put back. `keep`
/// is given each file's text before and after putting it back, before it is
/// written.
pub fn undo_retag(
    root: &Path,
    batch: &RetagBatch,
    own: &OwnWrites,
    keep: &dyn Fn(&Path, &str, &str),
) -> Result<Vec<PathBuf>, AuthorError> {
    let mut restored = Vec::new();
    for (path, before, after) in &batch.files {
        if fs::read_string(&root.join(path)).is_ok_and(|now| &now == after) {
            keep(path, after, before);
            save::save_post(root, path, before, None, own)?;
            restored.push(path.clone());
        }
    }
    Ok(restored)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::content::{Post, Rules};

    fn blog(files: &[(&str, &str)]) -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().unwrap();
        let mut library = Library::new(Rules::default());
        for (path, text) in files {
            let file = dir.path().join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(&file, text).unwrap();
            library.insert(Post::parse(Path::new(path), text));
        }
        (dir, library)
    }

    #[test]
    fn a_rename_changes_only_the_tags_and_can_be_undone() {
        let a = "---\ntitle: A  # kept\ntags: [GPU, nccl]\n---\nbody\n";
        let b = "+++\ntitle = \"B\"\ntags = [\"gpu\"]\n+++\nbody\n";
        let c = "---\ntitle: C\ntags: [other]\n---\n";
        let (dir, library) = blog(&[("posts/a.md", a), ("posts/b.md", b), ("posts/c.md", c)]);
        let plan = plan_retag(&library, "gpu", "CUDA").unwrap();
        assert_eq!(plan.files, [Path::new("posts/a.md"), Path::new("posts/b.md")]);
        assert!(!plan.merge);
        let own = OwnWrites::new();
        let batch = retag(dir.path(), &plan, &own, &|_, _, _| {}).unwrap();
        assert_eq!(batch.files.len(), 2);
        let read = |p: &str| fs::read_to_string(dir.path().join(p)).unwrap();
        assert_eq!(read("posts/a.md"), "---\ntitle: A  # kept\ntags: [CUDA, nccl]\n---\nbody\n");
        assert_eq!(read("posts/b.md"), "+++\ntitle = \"B\"\ntags = [\"CUDA\"]\n+++\nbody\n");
        assert_eq!(read("posts/c.md"), c);
        // One file edited since: it stays; the other goes back.
        fs::write(dir.path().join("posts/b.md"), "edited").unwrap();
        let restored = undo_retag(dir.path(), &batch, &own, &|_, _, _| {}).unwrap();
        assert_eq!(restored, [Path::new("posts/a.md")]);
        assert_eq!(read("posts/a.md"), a);
        assert_eq!(read("posts/b.md"), "edited");
    }

    #[test]
    fn a_merge_keeps_one_of_the_two() {
        let (dir, library) =
            blog(&[("posts/a.md", "---\ntags:\n  - gpu\n  - cuda\n---\n"), ("posts/b.md", "---\ntags: [cuda]\n---\n")]);
        let plan = plan_retag(&library, "gpu", "cuda").unwrap();
        assert!(plan.merge);
        retag(dir.path(), &plan, &OwnWrites::new(), &|_, _, _| {}).unwrap();
        assert_eq!(fs::read_to_string(dir.path().join("posts/a.md")).unwrap(), "---\ntags:\n  - cuda\n---\n");
        assert!(plan_retag(&library, "nothing", "x").is_err());
        assert!(plan_retag(&library, "gpu", " ").is_err());
    }
}

//! Adding an image to a post: the file is copied beside a bundle's
//! `index.md`, or for a single-file post into the images folder that the
//! blog's layout publishes (`static/images/`, Jekyll's `assets/images/`, the
//! Next.js starter's `public/static/images/`), under a name that is free, and
//! the Markdown that shows it is returned.

use std::path::{Component, Path, PathBuf};

use super::AuthorError;
use crate::content::file::PostFile;
use crate::fs::{self, OwnWrites};
use crate::tool::Layout;

const KINDS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "svg", "avif"];
const LARGEST: usize = 50 * 1024 * 1024;

/// Writes `bytes` as an image of the post at `post` (named like `name`) and
/// returns `![alt](link)`, the link relative to the post's file.
pub fn add_image(
    root: &Path,
    layout: &Layout,
    post: &Path,
    name: &str,
    bytes: &[u8],
    own: &OwnWrites,
) -> Result<String, AuthorError> {
    let name_path = Path::new(name);
    let extension = name_path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
    if !KINDS.contains(&extension.as_str()) {
        return Err(AuthorError::Invalid(format!(
            "`{name}` is not an image Hanji can add; use one of: {}",
            KINDS.join(", ")
        )));
    }
    if bytes.len() > LARGEST {
        return Err(AuthorError::Invalid(format!("`{name}` is larger than 50 MB; make it smaller first")));
    }
    let stem = name_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let base = match crate::slug::slug(&stem) {
        slug if slug.is_empty() => "image".to_string(),
        slug => slug,
    };
    let post_file = PostFile::new(post);
    let post_folder = post_file.folder();
    let folder = post_file.images_folder(layout);
    let file = (1..)
        .map(|n| if n == 1 { format!("{base}.{extension}") } else { format!("{base}-{n}.{extension}") })
        .map(|file| folder.join(file))
        .find(|path| !fs::exists(&root.join(path)))
        .expect("a free name");
    own.expect(&file, bytes);
    fs::write_atomically(&root.join(&file), bytes).map_err(AuthorError::io(&file))?;
    let alt = stem.replace(['-', '_'], " ").replace(['[', ']'], "");
    Ok(format!("![{}]({})", alt.trim(), relative_link(post_folder, &file)))
}

/// The link from a file in `from` (a folder) to `to`, both relative to the blog.
fn relative_link(from: &Path, to: &Path) -> String {
    let from: Vec<Component> = from.components().collect();
    let to_parts: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let mut link = PathBuf::new();
    for _ in common..from.len() {
        link.push("..");
    }
    for part in &to_parts[common..] {
        link.push(part);
    }
    link.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_goes_beside_a_bundle_and_under_static_for_a_single_file() {
        let dir = tempfile::tempdir().unwrap();
        let own = OwnWrites::new();
        let add = |post: &str, name: &str, bytes: &[u8]| {
            add_image(dir.path(), &Layout::default(), Path::new(post), name, bytes, &own).unwrap()
        };
        let in_bundle = add("posts/b/index.md", "All Reduce.PNG", b"1");
        assert_eq!(in_bundle, "![All Reduce](all-reduce.png)");
        assert_eq!(std::fs::read(dir.path().join("posts/b/all-reduce.png")).unwrap(), b"1");
        let single = add("posts/a.md", "도표_1.png", b"2");
        assert_eq!(single, "![도표 1](../static/images/도표_1.png)");
        let again = add("posts/a.md", "도표_1.png", b"3");
        assert_eq!(again, "![도표 1](../static/images/도표_1-2.png)");
        assert_eq!(std::fs::read(dir.path().join("static/images/도표_1.png")).unwrap(), b"2");
    }

    #[test]
    fn what_is_not_an_image_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error =
            add_image(dir.path(), &Layout::default(), Path::new("posts/a.md"), "notes.txt", b"x", &OwnWrites::new())
                .unwrap_err();
        assert!(error.to_string().contains("`notes.txt` is not an image"), "{error}");
        assert!(!dir.path().join("static").exists());
    }

    #[test]
    fn links_lead_from_the_post_folder() {
        assert_eq!(
            relative_link(Path::new("posts/2024"), Path::new("static/images/a.png")),
            "../../static/images/a.png"
        );
        assert_eq!(relative_link(Path::new("posts/b"), Path::new("posts/b/a.png")), "a.png");
    }
}

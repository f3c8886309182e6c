//! A post's file by its path alone: whether it is a bundle
//! (`<name>/index.md` with its files beside it), the name, slug and title
//! its file gives it, the date and name a Jekyll `_posts` file name carries,
//! and where it moves when renamed.

use std::path::{Component, Path, PathBuf};

use jiff::civil::Date;

use super::{JEKYLL_POSTS_DIR, Layout};

/// The names of a bundle's post file, in the order they are looked for.
pub const BUNDLE_INDEXES: &[&str] = &["index.md", "index.markdown", "index.mdx"];

/// A post's file, by its path relative to the blog folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostFile<'a> {
    path: &'a Path,
}

impl<'a> PostFile<'a> {
    pub fn new(path: &'a Path) -> Self {
        PostFile { path }
    }

    pub fn path(&self) -> &'a Path {
        self.path
    }

    /// `posts/<name>/index.md`: the folder is the post, its files beside it.
    pub fn is_bundle(&self) -> bool {
        self.path.file_stem().is_some_and(|s| s == "index")
            && self.path.parent().is_some_and(|p| p.file_name().is_some())
    }

    /// The bundle's folder, `posts/<name>`, if it is one.
    pub fn bundle_folder(&self) -> Option<&'a Path> {
        self.is_bundle().then(|| self.path.parent()).flatten()
    }

    /// The folder that relative links and images in the post start from.
    pub fn folder(&self) -> &'a Path {
        self.path.parent().unwrap_or(Path::new(""))
    }

    /// Whether the post is in a Jekyll `_posts` folder (at any depth), where
    /// Jekyll's rules for names and categories hold.
    pub fn in_jekyll_posts(&self) -> bool {
        self.folder().components().any(|c| c == Component::Normal(JEKYLL_POSTS_DIR.as_ref()))
    }

    /// The date and name of a Jekyll post's file: `_posts/2026-07-17-hello-world.md`
    /// → (2026-07-17, `hello-world`). None outside a `_posts` folder.
    pub fn dated(&self) -> Option<(Date, &'a str)> {
        if !self.in_jekyll_posts() {
            return None;
        }
        let stem = self.path.file_stem()?.to_str()?;
        let mut parts = stem.splitn(4, '-');
        let (year, month, day, name) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let number = |text: &str, digits: std::ops::RangeInclusive<usize>| {
            (digits.contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse::<i16>().ok())?
        };
        let date = Date::new(number(year, 4..=4)?, number(month, 1..=2)? as i8, number(day, 1..=2)? as i8).ok()?;
        (!name.is_empty()).then_some((date, name))
    }

    /// The name the file gives the post: a Jekyll name without its date, the
    /// folder of a bundle, else the file's stem.
    pub fn name(&self) -> String {
        if let Some((_, name)) = self.dated() {
            return name.to_string();
        }
        let named = if self.is_bundle() { self.path.parent().and_then(Path::file_name) } else { self.path.file_stem() };
        named.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The slug the file gives the post (its front matter may set another).
    pub fn slug(&self) -> String {
        let name = self.name();
        let slug = crate::slug::slug(&name);
        if slug.trim_matches('-').is_empty() { name } else { slug }
    }

    /// The title of a post whose front matter has none: as Jekyll makes it
    /// from a dated name (`my-first-post` → `My First Post`), else the name.
    pub fn title(&self) -> String {
        match self.dated() {
            Some((_, name)) => title_from_name(name),
            None => self.name(),
        }
    }

    /// What moves when the post takes the name `slug`: (the file or bundle
    /// folder that moves, where it goes, the post's new path). A bundle's
    /// folder is renamed; a file keeps its extension (`.mdx`) and a Jekyll
    /// file its date (`2026-07-17-<slug>.md`).
    pub fn renamed(&self, slug: &str) -> (PathBuf, PathBuf, PathBuf) {
        if let Some(folder) = self.bundle_folder() {
            let to = folder.parent().unwrap_or(Path::new("")).join(slug);
            let new_path = to.join(self.path.file_name().expect("a bundle's file has a name"));
            return (folder.to_path_buf(), to, new_path);
        }
        let extension = self.path.extension().map_or_else(|| "md".into(), |e| e.to_string_lossy().into_owned());
        let name = match self.dated() {
            Some((date, _)) => format!("{}-{slug}.{extension}", date.strftime("%Y-%m-%d")),
            None => format!("{slug}.{extension}"),
        };
        let new_path = self.path.with_file_name(name);
        (self.path.to_path_buf(), new_path.clone(), new_path)
    }

    /// Where an image added to the post goes: beside a bundle's file, else
    /// in the layout's images folder, which its site publishes.
    pub fn images_folder(&self, layout: &Layout) -> PathBuf {
        match self.bundle_folder() {
            Some(folder) => folder.to_path_buf(),
            None => layout.images_dir(),
        }
    }
}

/// A post's title from its name, as Jekyll makes it: `my-first-post` → `My First Post`.
pub fn title_from_name(name: &str) -> String {
    let words = name.split('-').filter(|w| !w.is_empty()).map(|word| {
        let mut chars = word.chars();
        chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
    });
    words.collect::<Vec<_>>().join(" ")
}

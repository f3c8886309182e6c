//! Starting a blog: a new folder with `hanji.toml` (its title, language and
//! author), an About page and a first post, written in the blog's language;
//! and a copy of a blog to try (the sample), never written over.

use std::path::{Path, PathBuf};

use super::AuthorError;
use crate::content::PostDate;
use crate::front_matter::{FieldValue, set_field};
use crate::fs;

/// What the author says of the blog to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBlog {
    pub title: String,
    /// `ko-KR`, `en-US`: the pages' language and how dates are written.
    pub locale: String,
    pub author: String,
}

/// Makes the blog `blog` in `folder`, which must not exist yet or be empty:
/// `hanji.toml`, `pages/about.md` and `posts/<first post>.md`, dated the day
/// `now` is in the blog's time zone (so that it is published, not scheduled).
/// Returns the folder.
pub fn new_blog(folder: &Path, blog: &NewBlog, now: jiff::Timestamp) -> Result<PathBuf, AuthorError> {
    let title = blog.title.trim();
    if title.is_empty() {
        return Err(AuthorError::Invalid("a new blog needs a title".into()));
    }
    let locale = match blog.locale.trim() {
        "" => "en-US",
        locale => locale,
    };
    vacant(folder)?;
    let korean = locale.to_ascii_lowercase().starts_with("ko");
    let words = if korean { &KOREAN } else { &ENGLISH };
    let mut settings = toml::Table::new();
    settings.insert("title".into(), title.into());
    settings.insert("locale".into(), locale.into());
    if !blog.author.trim().is_empty() {
        settings.insert("author".into(), blog.author.trim().into());
    }
    if korean {
        // Scheduled posts come at Korean time.
        settings.insert("time_zone".into(), KOREAN_TIME.into());
    }
    let zone = match korean {
        true => jiff::tz::TimeZone::get(KOREAN_TIME).unwrap_or_else(|_| jiff::tz::TimeZone::system()),
        false => jiff::tz::TimeZone::system(),
    };
    let today = now.to_zoned_datetime(zone).date();
    let settings = toml::to_string(&settings).map_err(|e| AuthorError::Invalid(format!("the settings: {e}")))?;
    let about = page(words.about_title, words.about, None)?;
    let first = page(words.first_title, words.first, Some(today))?;
    let made =
        fs::Folder::open(folder, true).map_err(|source| AuthorError::Io { path: folder.to_path_buf(), source })?;
    let write = |path: &str, text: &str| {
        let file = fs::SitePath::new(path).map_err(|e| AuthorError::Invalid(e.to_string()))?;
        made.write(&file, text.as_bytes(), fs::Durable::Flushed)
            .map_err(|source| AuthorError::Io { path: folder.join(path), source })
    };
    write("hanji.toml", &settings)?;
    write("pages/about.md", &about)?;
    write(&format!("posts/{}.md", words.first_slug), &first)?;
    Ok(folder.to_path_buf())
}

/// Copies the blog in `from` (the sample) into `to`, which must not exist
/// yet or be empty; returns `to`. Only plain files are copied (no symlink
/// leads out of the copy), hidden ones and Hanji's own `.hanji/` left out.
pub fn copy_blog(from: &Path, to: &Path) -> Result<PathBuf, AuthorError> {
    vacant(to)?;
    let unreadable = |reason: String| AuthorError::Unreadable { path: from.to_path_buf(), reason };
    let files = fs::files_under(from).map_err(|e| unreadable(e.to_string()))?;
    let made = fs::Folder::open(to, true).map_err(|source| AuthorError::Io { path: to.to_path_buf(), source })?;
    for (file, _) in files {
        let hidden = file.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
        // A name that cannot be a plain path in the copy is not copied.
        let Some(name) = file.to_str().and_then(|name| fs::SitePath::new(name).ok()).filter(|_| !hidden) else {
            continue;
        };
        made.copy_if_changed(&name, &from.join(&file)).map_err(|e| match e {
            fs::CopyError::Read(e) => unreadable(e.to_string()),
            fs::CopyError::Write(source) => AuthorError::Io { path: to.join(&file), source },
        })?;
    }
    Ok(to.to_path_buf())
}

/// A folder under `parent` named `name` (`-2`, `-3`… when taken) that does not exist yet.
pub fn fresh_folder(parent: &Path, name: &str) -> PathBuf {
    let name = match crate::slug::slug(name) {
        slug if slug.is_empty() => "blog".to_string(),
        slug => slug,
    };
    (1..)
        .map(|n| parent.join(if n == 1 { name.clone() } else { format!("{name}-{n}") }))
        .find(|folder| !fs::exists(folder))
        .expect("a free name")
}

/// Refuses a folder that holds anything: a blog is never made over files.
fn vacant(folder: &Path) -> Result<(), AuthorError> {
    match fs::is_empty_folder(folder) {
        Ok(true) => Ok(()),
        Ok(false) => Err(AuthorError::Exists(folder.to_path_buf())),
        // Made as it is opened to be written.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => Err(AuthorError::Exists(folder.to_path_buf())),
        Err(source) => Err(AuthorError::Io { path: folder.to_path_buf(), source }),
    }
}

/// A page's text: its front matter (title, and a date for a post) and body.
fn page(title: &str, body: &str, date: Option<jiff::civil::Date>) -> Result<String, AuthorError> {
    let invalid = |e: crate::front_matter::EditError| AuthorError::Invalid(e.to_string());
    let mut text = set_field("", "title", &FieldValue::Text(title.into())).map_err(invalid)?;
    if let Some(date) = date {
        text = set_field(&text, "date", &FieldValue::Date(PostDate { date, time: None })).map_err(invalid)?;
        text = set_field(&text, "tags", &FieldValue::List(vec![WELCOME_TAG.into()])).map_err(invalid)?;
    }
    Ok(format!("{text}\n{body}"))
}

/// The time zone of a Korean blog.
const KOREAN_TIME: &str = "Asia/Seoul";

/// The first post's tag, so that the tag list has one to show.
const WELCOME_TAG: &str = "hanji";

/// A new blog's first words, in its language.
struct Words {
    about_title: &'static str,
    about: &'static str,
    first_title: &'static str,
    first_slug: &'static str,
    first: &'static str,
}

const KOREAN: Words = Words {
    about_title: "소개",
    about: "이 블로그와 글쓴이를 소개하는 페이지입니다. `pages/about.md`를 고쳐 쓰세요.\n",
    first_title: "첫 글",
    first_slug: "first-post",
    first: "한지로 쓴 첫 글입니다. 왼쪽 위 **새 글**(Ctrl+N)로 글을 더 쓰고, **내보내기**(Ctrl+E)로 사이트를 만듭니다.\n\n\
            ## 표와 코드\n\n| 무엇 | 어디 |\n| --- | --- |\n| 글 | `posts/` |\n| 페이지 | `pages/` |\n\n\
            ```sh\nhanji export . --out site\n```\n",
};

const ENGLISH: Words = Words {
    about_title: "About",
    about: "A page about this blog and its author. Edit `pages/about.md` to write it.\n",
    first_title: "First post",
    first_slug: "first-post",
    first: "The first post written with Hanji. **New post** (Ctrl+N) writes another, and **Export** (Ctrl+E) makes the site.\n\n\
            ## A table and some code\n\n| What | Where |\n| --- | --- |\n| Posts | `posts/` |\n| Pages | `pages/` |\n\n\
            ```sh\nhanji export . --out site\n```\n",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_blog_loads_with_its_page_and_first_post_and_no_problem() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("새 블로그");
        let blog =
            NewBlog { title: "나의 \"첫\" 블로그".into(), locale: "ko-KR".into(), author: "한지수".into() };
        new_blog(&folder, &blog, "2026-12-07T00:30:00Z".parse().unwrap()).unwrap();
        let loaded = crate::load::load(&folder).unwrap();
        assert_eq!(loaded.config.title, "나의 \"첫\" 블로그");
        assert_eq!((loaded.config.locale.as_str(), loaded.config.author.as_str()), ("ko-KR", "한지수"));
        let titles: Vec<(&str, bool)> = loaded.library.posts().map(|p| (p.title.as_str(), p.page)).collect();
        assert_eq!(titles, [("첫 글", false), ("소개", true)]);
        assert_eq!(crate::check::check(&loaded), [], "a new blog has no problem");
        assert!(
            matches!(new_blog(&folder, &blog, "2026-12-07T00:30:00Z".parse().unwrap()), Err(AuthorError::Exists(_))),
            "never over files"
        );
    }

    #[test]
    fn a_copy_of_a_blog_is_a_blog_and_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let sample = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/content"));
        let to = fresh_folder(dir.path(), "Hanji 예제");
        assert!(to.ends_with("hanji-예제"), "{}", to.display());
        copy_blog(sample, &to).unwrap();
        let copy = crate::load::load(&to).unwrap();
        let original = crate::load::load(sample).unwrap();
        assert_eq!(copy.library.len(), original.library.len());
        assert_eq!(fresh_folder(dir.path(), "Hanji 예제"), dir.path().join("hanji-예제-2"));
        assert!(matches!(copy_blog(sample, &to), Err(AuthorError::Exists(_))));
    }
}

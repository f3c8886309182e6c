//! What the UI is sent: the open blog as its sidebar and status bar show it,
//! post texts, previews and watch updates. Mirrors `ui/src/lib/types.ts`.

use serde::{Deserialize, Serialize};

use hanji::diagnostics::Diagnostic;
use hanji::load::Blog;
use hanji::preview::Fields;
use hanji::watch::{ChangeSet, WatchState};

fn text_of(path: &std::path::Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PostItem {
    pub path: String,
    pub slug: String,
    pub title: String,
    pub date: Option<String>,
    pub tags: Vec<String>,
    pub draft: bool,
    pub has_errors: bool,
    pub summary: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TagItem {
    pub slug: String,
    pub name: String,
    pub count: usize,
    pub draft_count: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BlogView {
    pub root: String,
    pub title: String,
    pub posts: Vec<PostItem>,
    pub tags: Vec<TagItem>,
    pub problems: Vec<Diagnostic>,
    pub watch: WatchState,
    /// Another tool's blog, as detected: `detected a Hugo blog (hugo.toml): posts in content/posts`.
    pub layout: Option<String>,
}

impl BlogView {
    pub fn of(blog: &Blog, watch: WatchState) -> Self {
        let posts = blog
            .library
            .posts()
            .map(|post| PostItem {
                path: text_of(&post.path),
                slug: post.slug.clone(),
                title: post.title.clone(),
                date: post.date.map(|d| d.date.to_string()),
                tags: post.tags.clone(),
                draft: post.draft,
                has_errors: post.has_errors,
                summary: post.summary.clone(),
            })
            .collect();
        let tags = blog
            .library
            .tags(true)
            .into_iter()
            .map(|tag| TagItem { slug: tag.slug, name: tag.name, count: tag.count, draft_count: tag.draft_count })
            .collect();
        BlogView {
            root: blog.root.to_string_lossy().into_owned(),
            title: blog.config.title.clone(),
            posts,
            tags,
            problems: blog.diagnostics(),
            watch,
            layout: blog.layout().describe(&blog.config.posts_dir),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub autosave: bool,
    pub autosave_delay_ms: u64,
    pub new_post_as_bundle: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { autosave: true, autosave_delay_ms: 1500, new_post_as_bundle: false }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartInfo {
    pub blog: Option<BlogView>,
    pub recent: Vec<String>,
    pub settings: Settings,
    pub error: Option<crate::error::AppError>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PostText {
    pub path: String,
    pub text: String,
    pub version: String,
}

/// Unsaved text kept by the journal, with the saved file beside it.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Recovered {
    pub path: String,
    pub text: String,
    /// Seconds since 1970.
    pub kept_at: i64,
    /// The file as it is on disk now; None if it is gone (or was never saved).
    pub saved: Option<PostText>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Saved {
    pub path: String,
    pub version: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    pub url: String,
    pub fields: Fields,
    pub words: usize,
    pub reading_minutes: usize,
    pub problems: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileChange {
    pub path: String,
    pub external: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Renamed {
    pub from: String,
    pub to: String,
}

/// A change on disk, as `watch` streams it to the UI.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum WatchUpdate {
    Changed {
        blog: Box<BlogView>,
        added: Vec<FileChange>,
        changed: Vec<FileChange>,
        removed: Vec<String>,
        renamed: Vec<Renamed>,
    },
    Gone {
        message: String,
    },
    Back {
        message: String,
    },
    Notice {
        message: String,
    },
}

impl WatchUpdate {
    pub fn changed(set: &ChangeSet, blog: BlogView) -> Self {
        let files = |changes: &[hanji::watch::FileChange]| {
            changes.iter().map(|c| FileChange { path: text_of(&c.path), external: c.external }).collect()
        };
        WatchUpdate::Changed {
            blog: Box::new(blog),
            added: files(&set.added),
            changed: files(&set.changed),
            removed: set.removed.iter().map(|p| text_of(p)).collect(),
            renamed: set.renamed.iter().map(|r| Renamed { from: text_of(&r.from), to: text_of(&r.to) }).collect(),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RetagPlan {
    pub from: String,
    pub to: String,
    pub merge: bool,
    pub files: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RetagDone {
    pub batch: usize,
    pub files: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ExportProgress {
    pub done: usize,
    pub total: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExportSummary {
    pub out: String,
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub skipped: usize,
    pub message: String,
    pub problems: Vec<Diagnostic>,
}

pub fn paths(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths.iter().map(|p| text_of(p)).collect()
}

pub fn path_text(path: &std::path::Path) -> String {
    text_of(path)
}

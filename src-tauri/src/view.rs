//! What crosses to the UI and back: the open blog as its sidebar and status
//! bar show it, post texts, previews, watch updates, settings and the one
//! error every command returns. The UI's types are generated from these
//! (`ui/src/lib/ipc.ts`, see `tests/ipc.rs`); defaults live here only.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use hanji::{Blog, ChangeSet, Diagnostic, Fields, WatchState};

fn text_of(path: &std::path::Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct PostItem {
    pub path: String,
    pub slug: String,
    pub title: String,
    /// `YYYY-MM-DD`, or null for an undated post.
    pub date: Option<String>,
    pub tags: Vec<String>,
    /// The core's slug of each of `tags`, in the same order.
    pub tag_slugs: Vec<String>,
    pub draft: bool,
    /// Why a post that is no draft is not published: `scheduled` (until
    /// `publishAt`), `expired` or `unpublished`; null for any other post.
    pub held: Option<String>,
    /// When a scheduled post is published, in the blog's time zone:
    /// `2026-12-24 09:00 KST`.
    pub publish_at: Option<String>,
    /// The post has an error: listed, never published.
    pub has_errors: bool,
    pub summary: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct TagItem {
    pub slug: String,
    pub name: String,
    /// Published posts with this tag.
    pub count: usize,
    /// Drafts with this tag (not in `count`).
    pub draft_count: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct BlogView {
    /// The blog folder, absolute.
    pub root: String,
    pub title: String,
    /// Newest first; drafts and posts with errors included.
    pub posts: Vec<PostItem>,
    /// Most used first; includes draft-only tags.
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
                tag_slugs: blog.library.tag_slugs_of(post).collect(),
                draft: post.draft,
                held: post.held.map(|held| held.name().to_string()),
                publish_at: post.publish_date.map(|date| blog.library.rules().when(date)),
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

/// The app's settings; one missing from the stored file takes its default.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub autosave: bool,
    /// Idle time before an autosave.
    #[ts(type = "number")]
    pub autosave_delay_ms: u64,
    /// New posts as `posts/<slug>/index.md` instead of `posts/<slug>.md`.
    pub new_post_as_bundle: bool,
    /// Spell check prose (Korean and English) as you type.
    pub spellcheck: bool,
    /// Vim keys in the editor.
    pub vim: bool,
    /// Saved versions kept of each post (0: none).
    pub history_versions: u32,
    /// Saved versions older than this many days are dropped.
    pub history_days: u32,
}

impl Default for Settings {
    fn default() -> Self {
        let history = hanji::HistoryLimits::default();
        Settings {
            autosave: true,
            autosave_delay_ms: 1500,
            new_post_as_bundle: false,
            spellcheck: true,
            vim: false,
            history_versions: history.versions as u32,
            history_days: history.days,
        }
    }
}

impl Settings {
    pub fn history_limits(&self) -> hanji::HistoryLimits {
        hanji::HistoryLimits { versions: self.history_versions as usize, days: self.history_days.max(1) }
    }
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StartInfo {
    pub blog: Option<BlogView>,
    pub recent: Vec<String>,
    /// Always present, with the defaults above filled in.
    pub settings: Settings,
    /// Why no blog could be opened, if none was.
    pub error: Option<AppError>,
}

/// A post's text as it is on disk; `version` names those bytes (for conflicts).
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct PostText {
    pub path: String,
    pub text: String,
    pub version: String,
}

/// Unsaved text kept by the journal, with the saved file beside it.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct Recovered {
    pub path: String,
    pub text: String,
    /// Seconds since 1970.
    #[ts(type = "number")]
    pub kept_at: i64,
    /// The file as it is on disk now; None if it is gone (or was never saved).
    pub saved: Option<PostText>,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct Saved {
    pub path: String,
    pub version: String,
}

/// A heading of the post, as the page's table of contents lists it.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct Heading {
    pub level: u8,
    /// The heading's `id` in the page.
    pub id: String,
    pub title: String,
    /// The source line it is written on.
    pub line: usize,
}

/// The live preview of one post, rendered from its unsaved text.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    /// The post page in the `preview:` protocol (its links lead from there).
    pub url: String,
    /// The same page, whole: the preview frame patches itself to it. Its
    /// blocks carry `data-line`, their source lines.
    pub html: String,
    /// The headings of levels 2–4 (the page's table of contents), for the outline.
    pub outline: Vec<Heading>,
    pub fields: Fields,
    pub words: usize,
    pub reading_minutes: usize,
    pub problems: Vec<Diagnostic>,
}

/// A saved version of a post: the text a save replaced.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct VersionItem {
    /// Pass to `read_version`.
    pub id: String,
    /// When the save that replaced it was made, milliseconds since 1970.
    #[ts(type = "number")]
    pub saved_at: i64,
    pub bytes: usize,
    /// Lines that save added and removed.
    pub added: usize,
    pub removed: usize,
}

impl From<hanji::Version> for VersionItem {
    fn from(v: hanji::Version) -> Self {
        VersionItem { id: v.id, saved_at: v.saved_at, bytes: v.bytes, added: v.added, removed: v.removed }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct FileChange {
    pub path: String,
    /// False when the change is the app's own doing coming back (a save, a delete).
    pub external: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct Renamed {
    pub from: String,
    pub to: String,
    /// False for the app's own renames.
    pub external: bool,
}

/// A change on disk, as `watch` streams it to the UI.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum WatchUpdate {
    Changed {
        blog: Box<BlogView>,
        added: Vec<FileChange>,
        changed: Vec<FileChange>,
        removed: Vec<FileChange>,
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
        let files = |changes: &[hanji::FileChange]| {
            changes.iter().map(|c| FileChange { path: text_of(&c.path), external: c.external }).collect()
        };
        let renamed = set
            .renamed
            .iter()
            .map(|r| Renamed { from: text_of(&r.from), to: text_of(&r.to), external: r.external })
            .collect();
        WatchUpdate::Changed {
            blog: Box::new(blog),
            added: files(&set.added),
            changed: files(&set.changed),
            removed: files(&set.removed),
            renamed,
        }
    }
}

/// What renaming (or merging, when `to` exists) a tag will change.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct RetagPlan {
    pub from: String,
    pub to: String,
    /// The core's slug of `to`: the tag filter follows the renamed tag there.
    pub to_slug: String,
    /// `to` is already a tag: the two become one.
    pub merge: bool,
    pub files: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct RetagDone {
    /// Pass to `undo_retag` to put every file back.
    pub batch: usize,
    pub files: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct ExportProgress {
    pub done: usize,
    pub total: usize,
}

#[derive(Debug, Clone, Serialize, TS)]
pub struct ExportSummary {
    /// The folder written, absolute.
    pub out: String,
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    /// Posts left out because they have errors.
    pub skipped: usize,
    /// One line for the author, like the command line's.
    pub message: String,
    pub problems: Vec<Diagnostic>,
}

/// What went wrong, for the UI to react to.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    OutsideBlog,
    Conflict,
    NotFound,
    Exists,
    Io,
    Invalid,
    NoBlog,
    FrontMatter,
}

/// Every command fails with this. A `conflict` carries the file as it is now on disk.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct AppError {
    pub kind: ErrorKind,
    pub message: String,
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub theirs: Option<Box<PostText>>,
}

impl AppError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        AppError { kind, message: message.into(), path: None, theirs: None }
    }

    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    pub fn no_blog() -> Self {
        AppError::new(ErrorKind::NoBlog, "no blog is open: open a blog folder first")
    }
}

pub fn paths(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths.iter().map(|p| text_of(p)).collect()
}

pub fn path_text(path: &std::path::Path) -> String {
    text_of(path)
}

/// Every type above, as TypeScript, in the order the UI's `ipc.ts` holds them.
pub fn typescript() -> String {
    let cfg = ts_rs::Config::default();
    let declarations = [
        hanji::Severity::decl(&cfg),
        Diagnostic::decl(&cfg),
        WatchState::decl(&cfg),
        Fields::decl(&cfg),
        PostItem::decl(&cfg),
        TagItem::decl(&cfg),
        BlogView::decl(&cfg),
        Settings::decl(&cfg),
        StartInfo::decl(&cfg),
        PostText::decl(&cfg),
        Recovered::decl(&cfg),
        Saved::decl(&cfg),
        Heading::decl(&cfg),
        Preview::decl(&cfg),
        VersionItem::decl(&cfg),
        FileChange::decl(&cfg),
        Renamed::decl(&cfg),
        WatchUpdate::decl(&cfg),
        RetagPlan::decl(&cfg),
        RetagDone::decl(&cfg),
        ExportProgress::decl(&cfg),
        ExportSummary::decl(&cfg),
        ErrorKind::decl(&cfg),
        AppError::decl(&cfg),
    ];
    let mut text = String::from(
        "// Generated from src-tauri/src/view.rs by `cargo test -p hanji-app --test ipc` with\n\
         // HANJI_WRITE_IPC=1; do not edit. The UI imports these through types.ts.\n",
    );
    for declaration in declarations {
        text.push_str("\nexport ");
        text.push_str(&declaration);
        text.push('\n');
    }
    text
}

//! What crosses to the UI and back: the open blog as its sidebar and status
//! bar show it, post texts, previews, watch updates, settings and the one
//! error every command returns. The UI's types are generated from these
//! (`ui/src/lib/ipc.ts`, see `tests/ipc.rs`); defaults live here only.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use hanji::{Blog, ChangeSet, Diagnostic, Fields, Post, VersionCause, WatchState};

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
    /// A page (an About page), not a post: listed, not counted as a post.
    pub page: bool,
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
    pub watch: WatchState,
    /// The blog's locale (`ko-KR`): how the app writes its dates and numbers.
    pub locale: String,
    /// Another tool's blog, as detected: `detected a Hugo blog (hugo.toml): posts in content/posts`.
    pub layout: Option<String>,
}

impl BlogView {
    pub fn of(blog: &Blog, watch: WatchState) -> Self {
        let mut slugs = TagSlugs::of(blog);
        let posts = blog.library.posts().map(|post| PostItem::of(post, &mut slugs)).collect();
        BlogView {
            root: blog.root.to_string_lossy().into_owned(),
            title: blog.config.title.clone(),
            posts,
            tags: TagItem::all(blog),
            watch,
            locale: blog.config.locale.clone(),
            layout: blog.layout().describe(&blog.config.posts_dir),
        }
    }
}

impl PostItem {
    fn of(post: &Post, slugs: &mut TagSlugs) -> Self {
        PostItem {
            path: text_of(&post.path),
            slug: post.slug.clone(),
            title: post.title.clone(),
            date: post.date.map(|d| d.date.to_string()),
            tags: post.tags.clone(),
            tag_slugs: post.tags.iter().map(|name| slugs.of_name(name)).collect(),
            draft: post.draft,
            held: post.held.map(|held| held.name().to_string()),
            publish_at: post.publish_date.map(|date| slugs.blog.library.rules().when(date)),
            has_errors: post.has_errors,
            page: post.page,
        }
    }
}

impl TagItem {
    /// The blog's tags, most used first, drafts counted apart.
    fn all(blog: &Blog) -> Vec<TagItem> {
        blog.library
            .tags(true)
            .into_iter()
            .map(|tag| TagItem { slug: tag.slug, name: tag.name, count: tag.count, draft_count: tag.draft_count })
            .collect()
    }
}

/// The core's tag slugs, each name's made once: a blog has far fewer tag
/// names than its posts have tags.
struct TagSlugs<'a> {
    blog: &'a Blog,
    made: HashMap<String, String>,
}

impl<'a> TagSlugs<'a> {
    fn of(blog: &'a Blog) -> Self {
        TagSlugs { blog, made: HashMap::new() }
    }

    fn of_name(&mut self, name: &str) -> String {
        if let Some(slug) = self.made.get(name) {
            return slug.clone();
        }
        let slug = self.blog.library.tag_slug(name);
        self.made.insert(name.to_string(), slug.clone());
        slug
    }
}

/// A post at its place in the list of posts (newest first).
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct PlacedPost {
    pub at: usize,
    pub post: PostItem,
}

/// How the list of posts changed, so that a change to one post sends that
/// post, not the whole list.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct PostsChange {
    /// Every post, newest first, when the whole blog was read again: the
    /// list is this (and `put` and `removed` are empty).
    pub all: Option<Vec<PostItem>>,
    /// Posts added or changed, in the order of their places in the list as
    /// it is now: take each out of the list (where it was), then put each at
    /// its place, first place first.
    pub put: Vec<PlacedPost>,
    /// Posts no longer in the list.
    pub removed: Vec<String>,
}

impl PostsChange {
    /// What `set` did to the list of `blog`'s posts.
    pub fn of(set: &ChangeSet, blog: &Blog) -> Self {
        let mut slugs = TagSlugs::of(blog);
        if set.rescanned || set.config {
            let all = blog.library.posts().map(|post| PostItem::of(post, &mut slugs)).collect();
            return PostsChange { all: Some(all), put: Vec::new(), removed: Vec::new() };
        }
        let files = |changes: &'_ [hanji::FileChange]| changes.iter().map(|c| c.path.clone()).collect::<Vec<_>>();
        let mut touched: BTreeSet<PathBuf> = files(&set.added).into_iter().chain(files(&set.changed)).collect();
        touched.extend(files(&set.removed));
        touched.extend(set.renamed.iter().flat_map(|r| [r.from.clone(), r.to.clone()]));
        let mut put = Vec::new();
        if !touched.is_empty() {
            for (at, post) in blog.library.posts().enumerate() {
                if touched.remove(&post.path) {
                    put.push(PlacedPost { at, post: PostItem::of(post, &mut slugs) });
                }
            }
        }
        // What is left of the files touched has no post now.
        PostsChange { all: None, put, removed: touched.iter().map(|path| text_of(path)).collect() }
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
    /// While typing, autosaves keep one version every this many minutes.
    pub history_every_minutes: u32,
    /// The window's language: `ko`, `en`, or "" for the system's.
    pub language: String,
    /// The list of posts' width, in pixels.
    pub sidebar_width: u32,
    /// The preview's width, in pixels (0: half of the room beside the list).
    pub preview_width: u32,
    pub show_sidebar: bool,
    pub show_preview: bool,
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
            history_every_minutes: history.every_minutes,
            language: String::new(),
            sidebar_width: 260,
            preview_width: 0,
            show_sidebar: true,
            show_preview: true,
        }
    }
}

impl Settings {
    pub fn history_limits(&self) -> hanji::HistoryLimits {
        hanji::HistoryLimits {
            versions: self.history_versions as usize,
            days: self.history_days.max(1),
            every_minutes: self.history_every_minutes,
        }
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

/// A saved version of a post: the text a save (or a tag rename, or another
/// program's write) replaced.
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
    /// What replaced it.
    pub cause: VersionCause,
}

impl From<hanji::Version> for VersionItem {
    fn from(v: hanji::Version) -> Self {
        VersionItem {
            id: v.id,
            saved_at: v.saved_at,
            bytes: v.bytes,
            added: v.added,
            removed: v.removed,
            cause: v.cause,
        }
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
    Changed(Box<BlogChange>),
    Gone {
        message: String,
    },
    Back {
        message: String,
    },
    Notice {
        message: String,
    },
    /// Every problem of the blog, as `hanji check` finds them with the
    /// unsaved texts put in: sent after each check (after a change on disk,
    /// or to an unsaved text), and when the UI starts listening.
    Problems {
        problems: Vec<Diagnostic>,
    },
}

/// The blog changed: its list of posts as `posts` says, the rest of what
/// the sidebar and status bar show as it is now, and the files.
#[derive(Debug, Clone, Serialize, TS)]
pub struct BlogChange {
    pub posts: PostsChange,
    pub title: String,
    pub tags: Vec<TagItem>,
    pub locale: String,
    pub layout: Option<String>,
    pub watch: WatchState,
    pub added: Vec<FileChange>,
    pub changed: Vec<FileChange>,
    pub removed: Vec<FileChange>,
    pub renamed: Vec<Renamed>,
}

impl WatchUpdate {
    pub fn changed(set: &ChangeSet, blog: &Blog, watch: WatchState) -> Self {
        let files = |changes: &[hanji::FileChange]| {
            changes.iter().map(|c| FileChange { path: text_of(&c.path), external: c.external }).collect()
        };
        let renamed = set
            .renamed
            .iter()
            .map(|r| Renamed { from: text_of(&r.from), to: text_of(&r.to), external: r.external })
            .collect();
        WatchUpdate::Changed(Box::new(BlogChange {
            posts: PostsChange::of(set, blog),
            title: blog.config.title.clone(),
            tags: TagItem::all(blog),
            locale: blog.config.locale.clone(),
            layout: blog.layout().describe(&blog.config.posts_dir),
            watch,
            added: files(&set.added),
            changed: files(&set.changed),
            removed: files(&set.removed),
            renamed,
        }))
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

/// How far opening a blog has come: its posts read, of all of them.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
pub struct Loading {
    /// The blog folder, as it was asked for.
    pub root: String,
    pub read: usize,
    pub total: usize,
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

/// What an import made: the new blog, opened, and the import's report.
#[derive(Debug, Clone, Serialize, TS)]
pub struct Imported {
    pub blog: BlogView,
    pub report: ImportReport,
}

/// The import's report, as the Import dialog shows it: how many of each
/// kind came over, and every item that did not come over exactly.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ImportReport {
    /// `WordPress`, `Medium`, `Tistory`, `Velog`.
    pub platform: String,
    /// The new blog's folder.
    pub folder: String,
    /// (kind, how many): `posts`, `drafts`, `pages`, `tags`, `files`, …
    pub counts: Vec<ImportCount>,
    /// Each item not converted exactly: where it came from and why.
    pub notes: Vec<ImportNote>,
    /// Files an earlier import wrote that the author edited since: not written.
    pub kept: Vec<String>,
    /// Files of the folder the import did not make: not written.
    pub foreign: Vec<String>,
    pub written: usize,
    pub unchanged: usize,
}

#[derive(Debug, Clone, Serialize, TS)]
pub struct ImportCount {
    pub kind: String,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize, TS)]
pub struct ImportNote {
    pub source: String,
    pub what: String,
}

impl ImportReport {
    pub fn new(report: &hanji::ImportReport, folder: &std::path::Path) -> Self {
        ImportReport {
            platform: report.platform.clone(),
            folder: folder.to_string_lossy().into_owned(),
            counts: report
                .counts
                .iter()
                .map(|(kind, count)| ImportCount { kind: kind.to_string(), count: *count })
                .collect(),
            notes: report
                .notes
                .iter()
                .map(|note| ImportNote { source: note.source.clone(), what: note.what.clone() })
                .collect(),
            kept: report.kept.clone(),
            foreign: report.foreign.clone(),
            written: report.written.len(),
            unchanged: report.unchanged,
        }
    }
}

/// A publish target as the Publish dialog shows and edits it: the same
/// settings as `[publish.NAME]` in hanji.toml, as text.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
pub struct TargetForm {
    pub name: String,
    /// `git`, `bucket`, `sftp` or `folder`.
    pub kind: String,
    /// Each setting and its value (`remote`, `branch`, …; `url`).
    pub fields: Vec<(String, String)>,
}

impl TargetForm {
    pub fn of(target: &hanji::PublishTarget) -> Self {
        TargetForm {
            name: target.name.clone(),
            kind: target.kind.name().to_string(),
            fields: target.fields().into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }
}

/// A target of the open blog.
#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
pub struct TargetView {
    pub form: TargetForm,
    /// The secret it asks for (`an access token`), if any.
    pub secret: Option<String>,
    /// Whether the keychain holds it.
    pub has_secret: bool,
}

/// What the Publish dialog shows: the blog's targets, where secrets are
/// kept, and the blog's own git repository if it is in one.
#[derive(Debug, Clone, Serialize, TS)]
pub struct PublishInfo {
    pub targets: Vec<TargetView>,
    /// The keychain in use, in words.
    pub keychain: String,
    pub sources: Option<hanji::SourcesStatus>,
}

/// What a publish did.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PublishDone {
    pub target: String,
    pub sent: usize,
    #[ts(type = "number")]
    pub sent_bytes: u64,
    pub removed: usize,
    pub unchanged: usize,
    /// The site's address, to open.
    pub url: Option<String>,
    /// One line for the author, like the command line's.
    pub message: String,
    pub problems: Vec<Diagnostic>,
    /// Posts left out because they have errors.
    pub left_out: Vec<String>,
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
    /// A publish, or the blog's git: see `fault`.
    Publish,
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
    /// What to do, for a `publish` error or an import's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hint: Option<String>,
    /// How a publish failed (ask for the secret again, trust the host…).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fault: Option<hanji::Fault>,
}

impl AppError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        AppError { kind, message: message.into(), path: None, theirs: None, hint: None, fault: None }
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
        PlacedPost::decl(&cfg),
        PostsChange::decl(&cfg),
        Settings::decl(&cfg),
        StartInfo::decl(&cfg),
        PostText::decl(&cfg),
        Recovered::decl(&cfg),
        Saved::decl(&cfg),
        Heading::decl(&cfg),
        Preview::decl(&cfg),
        hanji::Misspelled::decl(&cfg),
        VersionCause::decl(&cfg),
        VersionItem::decl(&cfg),
        FileChange::decl(&cfg),
        Renamed::decl(&cfg),
        BlogChange::decl(&cfg),
        WatchUpdate::decl(&cfg),
        RetagPlan::decl(&cfg),
        RetagDone::decl(&cfg),
        Loading::decl(&cfg),
        ExportProgress::decl(&cfg),
        ExportSummary::decl(&cfg),
        ImportCount::decl(&cfg),
        ImportNote::decl(&cfg),
        ImportReport::decl(&cfg),
        Imported::decl(&cfg),
        hanji::PublishProgress::decl(&cfg),
        TargetForm::decl(&cfg),
        TargetView::decl(&cfg),
        hanji::Change::decl(&cfg),
        hanji::Changed::decl(&cfg),
        hanji::SourcesStatus::decl(&cfg),
        PublishInfo::decl(&cfg),
        PublishDone::decl(&cfg),
        hanji::Fault::decl(&cfg),
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The list as the UI keeps it, changed as `PostsChange` says (the UI's
    /// `applyPostsChange` does the same).
    fn follow(list: &mut Vec<PostItem>, change: PostsChange) {
        if let Some(all) = change.all {
            *list = all;
            return;
        }
        list.retain(|p| !change.removed.contains(&p.path) && !change.put.iter().any(|put| put.post.path == p.path));
        for placed in change.put {
            list.insert(placed.at, placed.post);
        }
    }

    #[test]
    fn a_change_sends_only_its_posts_and_the_list_follows_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |name: &str, text: String| std::fs::write(root.join("posts").join(name), text).unwrap();
        let post = |title: &str, date: &str, tags: &str| {
            format!("---\ntitle: {title}\ndate: {date}\ntags: [{tags}]\n---\nText.\n")
        };
        std::fs::create_dir_all(root.join("posts")).unwrap();
        for (i, name) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
            write(&format!("{name}.md"), post(&name.to_uppercase(), &format!("2026-07-1{i}"), "x"));
        }
        let mut blog = hanji::load(root).unwrap();
        let mut list = BlogView::of(&blog, WatchState::Watching).posts;
        let own = hanji::OwnWrites::new();
        type Step<'a> = (&'a str, Box<dyn Fn() + 'a>);
        let steps: Vec<Step> = vec![
            ("the oldest post becomes the newest", Box::new(|| write("a.md", post("A", "2026-08-01", "x, 분산 학습")))),
            ("a post added in the middle", Box::new(|| write("g.md", post("G", "2026-07-13", "y")))),
            ("a post removed", Box::new(|| std::fs::remove_file(root.join("posts/c.md")).unwrap())),
            (
                "a post renamed",
                Box::new(|| std::fs::rename(root.join("posts/d.md"), root.join("posts/dd.md")).unwrap()),
            ),
            ("a post that can no longer be read", Box::new(|| write("e.md", "---\ntitle: [\n---\n".into()))),
            ("and read again, undated", Box::new(|| write("e.md", "---\ntitle: E\n---\n".into()))),
        ];
        let touched = |names: &[&str]| hanji::Batch {
            paths: names.iter().map(|n| Path::new("posts").join(n)).collect(),
            rescan: false,
        };
        let batches = [
            touched(&["a.md"]),
            touched(&["g.md"]),
            touched(&["c.md"]),
            touched(&["d.md", "dd.md"]),
            touched(&["e.md"]),
            touched(&["e.md"]),
        ];
        for ((what, step), batch) in steps.iter().zip(batches) {
            step();
            let set = hanji::apply(&mut blog, &batch, &own).unwrap();
            let change = PostsChange::of(&set, &blog);
            assert!(change.all.is_none(), "{what}: not the whole list");
            assert!(change.put.len() + change.removed.len() <= 2, "{what}: only its posts: {change:?}");
            follow(&mut list, change);
            assert_eq!(list, BlogView::of(&blog, WatchState::Watching).posts, "{what}");
        }
        let set = hanji::rescan(&mut blog, &own).unwrap();
        let change = PostsChange::of(&set, &blog);
        assert!(change.all.is_some(), "read again: the whole list");
    }
}

// Generated from src-tauri/src/view.rs by `cargo test -p hanji-app --test ipc` with
// HANJI_WRITE_IPC=1; do not edit. The UI imports these through types.ts.

export type Severity = "error" | "warning";

export type Diagnostic = { path: string, line: number, column: number, severity: Severity, message: string, hint: string | null, };

export type WatchState = "watching" | "polling" | "gone";

export type Fields = { title: string | null, 
/**
 * `YYYY-MM-DD`.
 */
date: string | null, tags: Array<string>, summary: string | null, draft: boolean, 
/**
 * Why the front matter cannot be read (the form cannot edit it then).
 */
error: Diagnostic | null, };

export type PostItem = { path: string, slug: string, title: string, 
/**
 * `YYYY-MM-DD`, or null for an undated post.
 */
date: string | null, tags: Array<string>, 
/**
 * The core's slug of each of `tags`, in the same order.
 */
tagSlugs: Array<string>, draft: boolean, 
/**
 * Why a post that is no draft is not published: `scheduled` (until
 * `publishAt`), `expired` or `unpublished`; null for any other post.
 */
held: string | null, 
/**
 * When a scheduled post is published, in the blog's time zone:
 * `2026-12-24 09:00 KST`.
 */
publishAt: string | null, 
/**
 * The post has an error: listed, never published.
 */
hasErrors: boolean, 
/**
 * A page (an About page), not a post: listed, not counted as a post.
 */
page: boolean, };

export type TagItem = { slug: string, name: string, 
/**
 * Published posts with this tag.
 */
count: number, 
/**
 * Drafts with this tag (not in `count`).
 */
draftCount: number, };

export type BlogView = { 
/**
 * The blog folder, absolute.
 */
root: string, title: string, 
/**
 * Newest first; drafts and posts with errors included.
 */
posts: Array<PostItem>, 
/**
 * Most used first; includes draft-only tags.
 */
tags: Array<TagItem>, watch: WatchState, 
/**
 * The blog's locale (`ko-KR`): how the app writes its dates and numbers.
 */
locale: string, 
/**
 * Another tool's blog, as detected: `detected a Hugo blog (hugo.toml): posts in content/posts`.
 */
layout: string | null, };

export type PlacedPost = { at: number, post: PostItem, };

export type PostsChange = { 
/**
 * Every post, newest first, when the whole blog was read again: the
 * list is this (and `put` and `removed` are empty).
 */
all: Array<PostItem> | null, 
/**
 * Posts added or changed, in the order of their places in the list as
 * it is now: take each out of the list (where it was), then put each at
 * its place, first place first.
 */
put: Array<PlacedPost>, 
/**
 * Posts no longer in the list.
 */
removed: Array<string>, };

export type Settings = { autosave: boolean, 
/**
 * Idle time before an autosave.
 */
autosaveDelayMs: number, 
/**
 * New posts as `posts/<slug>/index.md` instead of `posts/<slug>.md`.
 */
newPostAsBundle: boolean, 
/**
 * Spell check prose (Korean and English) as you type.
 */
spellcheck: boolean, 
/**
 * Vim keys in the editor.
 */
vim: boolean, 
/**
 * Saved versions kept of each post (0: none).
 */
historyVersions: number, 
/**
 * Saved versions older than this many days are dropped.
 */
historyDays: number, 
/**
 * While typing, autosaves keep one version every this many minutes.
 */
historyEveryMinutes: number, 
/**
 * The window's language: `ko`, `en`, or "" for the system's.
 */
language: string, 
/**
 * The list of posts' width, in pixels.
 */
sidebarWidth: number, 
/**
 * The preview's width, in pixels (0: half of the room beside the list).
 */
previewWidth: number, showSidebar: boolean, showPreview: boolean, };

export type StartInfo = { blog: BlogView | null, recent: Array<string>, 
/**
 * Always present, with the defaults above filled in.
 */
settings: Settings, 
/**
 * Why no blog could be opened, if none was.
 */
error: AppError | null, };

export type PostText = { path: string, text: string, version: string, };

export type Recovered = { path: string, text: string, 
/**
 * Seconds since 1970.
 */
keptAt: number, 
/**
 * The file as it is on disk now; None if it is gone (or was never saved).
 */
saved: PostText | null, };

export type Saved = { path: string, version: string, };

export type Heading = { level: number, 
/**
 * The heading's `id` in the page.
 */
id: string, title: string, 
/**
 * The source line it is written on.
 */
line: number, };

export type Preview = { 
/**
 * The post page in the `preview:` protocol (its links lead from there).
 */
url: string, 
/**
 * The same page, whole: the preview frame patches itself to it. Its
 * blocks carry `data-line`, their source lines.
 */
html: string, 
/**
 * The headings of levels 2–4 (the page's table of contents), for the outline.
 */
outline: Array<Heading>, fields: Fields, words: number, readingMinutes: number, problems: Array<Diagnostic>, };

export type Misspelled = { from: number, to: number, word: string, };

export type VersionCause = { "kind": "save" } | { "kind": "tagRename", from: string, to: string, } | { "kind": "outside" };

export type VersionItem = { 
/**
 * Pass to `read_version`.
 */
id: string, 
/**
 * When the save that replaced it was made, milliseconds since 1970.
 */
savedAt: number, bytes: number, 
/**
 * Lines that save added and removed.
 */
added: number, removed: number, 
/**
 * What replaced it.
 */
cause: VersionCause, };

export type FileChange = { path: string, 
/**
 * False when the change is the app's own doing coming back (a save, a delete).
 */
external: boolean, };

export type Renamed = { from: string, to: string, 
/**
 * False for the app's own renames.
 */
external: boolean, };

export type BlogChange = { posts: PostsChange, title: string, tags: Array<TagItem>, locale: string, layout: string | null, watch: WatchState, added: Array<FileChange>, changed: Array<FileChange>, removed: Array<FileChange>, renamed: Array<Renamed>, };

export type WatchUpdate = { "kind": "changed" } & BlogChange | { "kind": "gone", message: string, } | { "kind": "back", message: string, } | { "kind": "notice", message: string, } | { "kind": "problems", problems: Array<Diagnostic>, };

export type RetagPlan = { from: string, to: string, 
/**
 * The core's slug of `to`: the tag filter follows the renamed tag there.
 */
toSlug: string, 
/**
 * `to` is already a tag: the two become one.
 */
merge: boolean, files: Array<string>, };

export type RetagDone = { 
/**
 * Pass to `undo_retag` to put every file back.
 */
batch: number, files: Array<string>, };

export type Loading = { 
/**
 * The blog folder, as it was asked for.
 */
root: string, read: number, total: number, };

export type ExportProgress = { done: number, total: number, };

export type ExportSummary = { 
/**
 * The folder written, absolute.
 */
out: string, written: number, unchanged: number, removed: number, 
/**
 * Posts left out because they have errors.
 */
skipped: number, 
/**
 * One line for the author, like the command line's.
 */
message: string, problems: Array<Diagnostic>, };

export type ImportCount = { kind: string, count: number, };

export type ImportNote = { source: string, what: string, };

export type ImportReport = { 
/**
 * `WordPress`, `Medium`, `Tistory`, `Velog`.
 */
platform: string, 
/**
 * The new blog's folder.
 */
folder: string, 
/**
 * (kind, how many): `posts`, `drafts`, `pages`, `tags`, `files`, …
 */
counts: Array<ImportCount>, 
/**
 * Each item not converted exactly: where it came from and why.
 */
notes: Array<ImportNote>, 
/**
 * Files an earlier import wrote that the author edited since: not written.
 */
kept: Array<string>, 
/**
 * Files of the folder the import did not make: not written.
 */
foreign: Array<string>, written: number, unchanged: number, };

export type Imported = { blog: BlogView, report: ImportReport, };

export type PublishProgress = { "step": "exporting", done: number, total: number, } | { "step": "exported", problems: Array<Diagnostic>, leftOut: Array<string>, } | { "step": "connecting" } | { "step": "sending", path: string, done: number, total: number, bytes: number, totalBytes: number, } | { "step": "removing", done: number, total: number, } | { "step": "finishing", bytes: number, };

export type TargetForm = { name: string, 
/**
 * `git`, `bucket`, `sftp` or `folder`.
 */
kind: string, 
/**
 * Each setting and its value (`remote`, `branch`, …; `url`).
 */
fields: Array<[string, string]>, };

export type TargetView = { form: TargetForm, 
/**
 * The secret it asks for (`an access token`), if any.
 */
secret: string | null, 
/**
 * Whether the keychain holds it.
 */
hasSecret: boolean, };

export type Change = "added" | "modified" | "deleted" | "conflicted";

export type Changed = { 
/**
 * Relative to the blog folder.
 */
path: string, change: Change, 
/**
 * The post's title, if it is a post.
 */
title: string | null, };

export type SourcesStatus = { 
/**
 * The branch checked out (None: no commit yet, or a detached HEAD).
 */
branch: string | null, 
/**
 * Where Pull and Push go: `origin/main`; None without one.
 */
upstream: string | null, 
/**
 * Commits here and not there, and there and not here (as last fetched).
 */
ahead: number, behind: number, 
/**
 * The blog's files changed since the last commit, posts first.
 */
changed: Array<Changed>, 
/**
 * A commit message made from the changed posts' titles.
 */
message: string, };

export type PublishInfo = { targets: Array<TargetView>, 
/**
 * The keychain in use, in words.
 */
keychain: string, sources: SourcesStatus | null, };

export type PublishDone = { target: string, sent: number, sentBytes: number, removed: number, unchanged: number, 
/**
 * The site's address, to open.
 */
url: string | null, 
/**
 * One line for the author, like the command line's.
 */
message: string, problems: Array<Diagnostic>, 
/**
 * Posts left out because they have errors.
 */
leftOut: Array<string>, };

export type Fault = "settings" | "export" | "secret" | "host_key" | "unreachable" | "rejected" | "denied" | "full" | "dropped" | "cancelled" | "failed";

export type ErrorKind = "outside_blog" | "conflict" | "not_found" | "exists" | "io" | "invalid" | "no_blog" | "front_matter" | "publish";

export type AppError = { kind: ErrorKind, message: string, path: string | null, theirs?: PostText, 
/**
 * What to do, for a `publish` error or an import's.
 */
hint?: string, 
/**
 * How a publish failed (ask for the secret again, trust the host…).
 */
fault?: Fault, };

// The shapes that cross between the Rust core and the UI, in one place: the
// rest of the UI imports IPC types from here only. Each mirrors a serde struct
// in `src-tauri/src/view.rs` (camelCase fields); change both together. Types
// only, no logic: this body may become re-exports of types generated from Rust.

export type Severity = "error" | "warning";

/** A problem in one file; `path` is relative to the blog folder, lines from 1. */
export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
  hint: string | null;
}

/** A post in the sidebar list. `path` is relative to the blog folder, with `/`. */
export interface PostItem {
  path: string;
  slug: string;
  title: string;
  /** `YYYY-MM-DD`, or null for an undated post. */
  date: string | null;
  tags: string[];
  /** The core's slug of each of `tags`, in the same order: what a clicked tag (`TagItem.slug`) is matched with. */
  tagSlugs: string[];
  draft: boolean;
  /** The post has an error: listed, never published. */
  hasErrors: boolean;
  summary: string | null;
}

/** A tag in the sidebar, as the seed page shows it: `name (count)`. */
export interface TagItem {
  slug: string;
  name: string;
  /** Published posts with this tag. */
  count: number;
  /** Drafts with this tag (not in `count`). */
  draftCount: number;
}

export type WatchState = "watching" | "polling" | "gone";

/** The open blog as the sidebar and status bar show it. */
export interface BlogView {
  /** The blog folder, absolute. */
  root: string;
  title: string;
  /** Newest first; drafts and posts with errors included. */
  posts: PostItem[];
  /** Most used first (published count, then name); includes draft-only tags. */
  tags: TagItem[];
  problems: Diagnostic[];
  watch: WatchState;
  /** Another tool's blog, as detected (`detected a Hugo blog (hugo.toml): posts in content/posts`); null for a Hanji blog. */
  layout: string | null;
}

export interface Settings {
  autosave: boolean;
  /** Idle time before an autosave. */
  autosaveDelayMs: number;
  /** New posts as `posts/<slug>/index.md` instead of `posts/<slug>.md`. */
  newPostAsBundle: boolean;
}

/** What the app starts with: the blog from the command line, the last one, or the sample. */
export interface StartInfo {
  blog: BlogView | null;
  recent: string[];
  /** Always present, filled from the core's defaults: the UI has none of its own. */
  settings: Settings;
  /** Why no blog could be opened, if none was. */
  error: AppError | null;
}

/** A post's text as it is on disk. `version` identifies those bytes (for conflicts). */
export interface PostText {
  path: string;
  text: string;
  version: string;
}

/** Unsaved text the journal kept from before the app last closed, with the saved file (null: gone or never saved). */
export interface Recovered {
  path: string;
  text: string;
  /** Seconds since 1970. */
  keptAt: number;
  saved: PostText | null;
}

export interface Saved {
  path: string;
  version: string;
}

/** The front matter fields the form edits, read from the (unsaved) text. */
export interface Fields {
  title: string | null;
  /** `YYYY-MM-DD`, or null. */
  date: string | null;
  tags: string[];
  summary: string | null;
  draft: boolean;
  /** Set when the front matter cannot be read: the form is then read-only. */
  error: Diagnostic | null;
}

export type FieldKey = "title" | "date" | "tags" | "summary" | "draft";
/** null removes the field. Dates are `YYYY-MM-DD`. */
export type FieldValue = string | string[] | boolean | null;

/** The live preview of one post, rendered from its unsaved text. */
export interface Preview {
  /** The post page in the `preview:` protocol; add `#hanji-line-N` to scroll to a source line. */
  url: string;
  fields: Fields;
  words: number;
  readingMinutes: number;
  problems: Diagnostic[];
}

/** What went wrong, for the UI to react to; the strings of the Rust error enum. */
export type ErrorKind =
  | "outside_blog"
  | "conflict"
  | "not_found"
  | "exists"
  | "io"
  | "invalid"
  | "no_blog"
  | "front_matter"
  | "cancelled";

/** Every command fails with this. `conflict` carries the file as it is now on disk. */
export interface AppError {
  kind: ErrorKind;
  message: string;
  path: string | null;
  theirs?: PostText | null;
}

export interface FileChange {
  path: string;
  /** false when the change is the app's own doing coming back (a save, a delete). */
  external: boolean;
}

export type WatchUpdate =
  | {
      kind: "changed";
      blog: BlogView;
      added: FileChange[];
      changed: FileChange[];
      removed: FileChange[];
      /** `external` is false for the app's own renames. */
      renamed: { from: string; to: string; external: boolean }[];
    }
  | { kind: "gone"; message: string }
  | { kind: "back"; message: string }
  | { kind: "notice"; message: string };

/** What renaming (or merging, when `to` exists) a tag will change. */
export interface RetagPlan {
  from: string;
  to: string;
  /** The core's slug of `to`: the tag filter follows the renamed tag there. */
  toSlug: string;
  /** `to` is already a tag: the two become one. */
  merge: boolean;
  files: string[];
}

export interface RetagDone {
  /** Pass to `undoRetag` to put every file back. */
  batch: number;
  files: string[];
}

export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportSummary {
  /** The folder written, absolute. */
  out: string;
  written: number;
  unchanged: number;
  removed: number;
  /** Posts left out because they have errors. */
  skipped: number;
  /** One line for the author, like the CLI's. */
  message: string;
  problems: Diagnostic[];
}

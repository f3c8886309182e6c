//! What the app knows about one open post besides its text: the version on
//! disk, whether it has unsaved edits, a save in flight, a conflict with the
//! disk, or a file that is gone. Pure transitions; `posts.svelte.ts` runs them.

import type { Words } from "./i18n/en";
import type { AppError, PostText } from "./types";

export interface PostStatus {
  path: string;
  /** The version of the file on disk that `savedText` is. */
  version: string;
  /** The text on disk as of `version`: the editor text is unsaved when it differs. */
  savedText: string;
  dirty: boolean;
  saving: boolean;
  /** Why the last save failed, if it did. */
  error: string | null;
  /** The file as it is on disk when it changed under unsaved edits. */
  conflict: PostText | null;
  /** Show `conflict` read-only beside the editor. */
  showBoth: boolean;
  /** The file was removed on disk; the text stays open, unsaved. */
  gone: boolean;
  /** The text was restored from the journal after the app closed unsaved; `conflict` is the saved file. */
  restored: boolean;
}

export function opened(post: PostText): PostStatus {
  return {
    path: post.path,
    version: post.version,
    savedText: post.text,
    dirty: false,
    saving: false,
    error: null,
    conflict: null,
    showBoth: false,
    gone: false,
    restored: false,
  };
}

/** The editor text changed (typing, the form, an insert). */
export function edited(s: PostStatus, text: string): PostStatus {
  const dirty = s.gone || text !== s.savedText;
  return dirty === s.dirty ? s : { ...s, dirty };
}

export function saveStarted(s: PostStatus): PostStatus {
  return { ...s, saving: true, error: null };
}

/** `sent` reached the disk as `version`; `current` is the editor text now (typing goes on during a save). */
export function saved(s: PostStatus, sent: string, version: string, current: string): PostStatus {
  return { ...opened({ path: s.path, text: sent, version }), dirty: current !== sent };
}

export function saveFailed(s: PostStatus, error: AppError): PostStatus {
  const theirs = error.kind === "conflict" ? (error.theirs ?? null) : null;
  return {
    ...s,
    saving: false,
    dirty: true,
    error: error.kind === "conflict" ? null : error.message,
    conflict: theirs ?? s.conflict,
  };
}

/** The editor now holds the disk's text (a reload, or "Take theirs"). */
export function tookDisk(s: PostStatus, disk: PostText): PostStatus {
  return { ...opened(disk), path: s.path };
}

/** The file changed on disk while the editor has unsaved edits. */
export function conflicted(s: PostStatus, theirs: PostText): PostStatus {
  return { ...s, conflict: theirs, restored: false };
}

/**
 * The journal's text was put in the editor over the saved file: unsaved, with
 * the saved file beside it as a conflict, so nothing is written (not even by
 * autosave) until the author keeps one. A file that is gone is simply unsaved.
 */
export function restored(s: PostStatus, saved: PostText | null): PostStatus {
  return saved ? { ...s, dirty: true, conflict: saved, restored: true } : { ...s, dirty: true, gone: true };
}

export function removedOnDisk(s: PostStatus): PostStatus {
  return { ...s, gone: true, dirty: true, conflict: null, showBoth: false };
}

export function moved(s: PostStatus, to: string): PostStatus {
  return { ...s, path: to };
}

/** Whether autosave may write this post now. */
export const canAutosave = (s: PostStatus) => s.dirty && !s.saving && !s.conflict && !s.gone;

/** Which word the status bar has for it: saved, unsaved or saving. */
export function saveLabel(s: PostStatus): "saved" | "unsaved" | "saving" {
  if (s.saving) return "saving";
  return s.dirty ? "unsaved" : "saved";
}

/** Why it is unsaved, when that is more than typing: shown beside the label, in `words`. */
export function saveNote(s: PostStatus, words: Pick<Words, "status">): string {
  if (s.error) return words.status.saveFailed(s.error);
  if (s.conflict) return words.status.changedOnDisk;
  if (s.gone) return words.status.goneFromDisk;
  return "";
}

//! What a watcher update means for the posts open in the editor.

import type { WatchUpdate } from "./types";

export type WatchAction =
  /** The file moved: keep editing it under its new path (read again only when another program moved it). */
  | { kind: "follow"; from: string; to: string; external: boolean }
  /** Changed elsewhere, no unsaved edits: read it again into the editor. */
  | { kind: "reload"; path: string }
  /** Changed elsewhere under unsaved edits: ask the author. */
  | { kind: "conflict"; path: string }
  /** Removed on disk by another program: keep the text open as unsaved. */
  | { kind: "gone"; path: string };

export interface OpenPostInfo {
  path: string;
  dirty: boolean;
}

/**
 * The actions for the open posts, renames first (a later change of the same
 * file comes under its new path). The app's own saves and removals
 * (`external: false`) and posts that are not open need nothing: the author's
 * Delete closes its post itself, and is no news.
 */
export function planWatch(update: WatchUpdate, open: OpenPostInfo[]): WatchAction[] {
  if (update.kind !== "changed") return [];
  const byPath = new Map(open.map((p) => [p.path, p]));
  const actions: WatchAction[] = [];

  for (const { from, to, external } of update.renamed) {
    const post = byPath.get(from);
    if (!post || byPath.has(to)) continue;
    byPath.delete(from);
    byPath.set(to, { ...post, path: to });
    actions.push({ kind: "follow", from, to, external });
  }
  for (const { path, external } of update.removed) {
    if (external && byPath.has(path)) actions.push({ kind: "gone", path });
  }
  // A file added where an open post was removed earlier is that post coming back.
  for (const change of [...update.changed, ...update.added]) {
    const post = byPath.get(change.path);
    if (!post || !change.external) continue;
    actions.push({ kind: post.dirty ? "conflict" : "reload", path: change.path });
  }
  return actions;
}

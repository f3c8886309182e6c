//! The list of posts the sidebar shows, kept as the core says it changed:
//! a change on disk sends only the posts it touched, each with its place in
//! the list (the core orders the posts; the UI has no order of its own).

import type { PostItem, PostsChange } from "./types";

/** `list` (newest first) as it is after `change`. */
export function applyPostsChange(list: readonly PostItem[], change: PostsChange): PostItem[] {
  if (change.all) return change.all;
  if (change.put.length === 0 && change.removed.length === 0) return list as PostItem[];
  const out = new Set([...change.removed, ...change.put.map((p) => p.post.path)]);
  const next = list.filter((p) => !out.has(p.path));
  for (const placed of change.put) next.splice(placed.at, 0, placed.post);
  return next;
}

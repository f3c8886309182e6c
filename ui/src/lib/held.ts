//! The badge a post carries in the sidebar and over the editor when it is not
//! published: a draft, or held back until a moment (scheduled), or for good
//! (expired, unpublished), as the core judged it. Pure.

import type { PostItem } from "./types";

/**
 * `scheduled for 2026-12-24 09:00 KST`, `expired`, `unpublished`, `draft`, or
 * null for a published post. `draft` is the front matter's own flag (the
 * form's, when the post is open), which wins: a draft is not scheduled.
 */
export function heldBadge(draft: boolean, post: Pick<PostItem, "held" | "publishAt"> | null | undefined): string | null {
  if (draft) return "draft";
  switch (post?.held) {
    case "scheduled":
      return post.publishAt ? `scheduled for ${post.publishAt}` : "scheduled";
    case "expired":
    case "unpublished":
      return post.held;
    default:
      return null;
  }
}

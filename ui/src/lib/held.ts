//! The badge a post carries in the sidebar and over the editor when it is not
//! published: a draft, or held back until a moment (scheduled), or for good
//! (expired, unpublished), as the core judged it. Pure.

import type { Words } from "./i18n/en";
import type { PostItem } from "./types";

/**
 * `scheduled for 2026-12-24 09:00 KST`, `expired`, `unpublished`, `draft` (in
 * `words`), or null for a published post. `draft` is the front matter's own
 * flag (the form's, when the post is open), which wins: a draft is not scheduled.
 */
export function heldBadge(
  draft: boolean,
  post: Pick<PostItem, "held" | "publishAt"> | null | undefined,
  words: Pick<Words, "held">,
): string | null {
  if (draft) return words.held.draft;
  switch (post?.held) {
    case "scheduled":
      return post.publishAt ? words.held.scheduledFor(post.publishAt) : words.held.scheduled;
    case "expired":
      return words.held.expired;
    case "unpublished":
      return words.held.unpublished;
    default:
      return null;
  }
}

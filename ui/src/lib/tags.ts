//! Tags as the sidebar shows them (`nccl (5)`, like the seed page) and as the
//! form's chip input reads them.

import { slugify } from "./slug";
import type { TagItem } from "./types";

/** The sidebar label, exactly as the seed page and `hanji tags` write it. */
export function tagLabel(tag: TagItem): string {
  return `${tag.name} (${tag.count})`;
}

/** The extra note for drafts (`1 draft`), or "" when no draft has the tag. */
export function draftNote(tag: TagItem): string {
  if (tag.draftCount === 0) return "";
  return `${tag.draftCount} ${tag.draftCount === 1 ? "draft" : "drafts"}`;
}

/** Only drafts have it: shown dimmed. */
export const isDraftOnly = (tag: TagItem) => tag.count === 0 && tag.draftCount > 0;

export interface TagInput {
  /** The post's tags after the input was read. */
  tags: string[];
  /** What stays in the input box (an unfinished tag). */
  rest: string;
  /** Whether `tags` differs from the tags before. */
  changed: boolean;
}

/**
 * Reads the chip input: a comma ends a tag; `commit` (Enter, or leaving the box)
 * ends the last one too. Tags are trimmed; one whose slug is already there
 * (`NCCL` when `nccl` is) is not added twice.
 */
export function readTagInput(current: string[], input: string, commit: boolean): TagInput {
  const parts = input.split(/[,，]/);
  const rest = commit ? "" : (parts.pop() ?? "");
  const tags = [...current];
  const seen = new Set(current.map(slugify));
  for (const part of parts) {
    const name = part.trim().replace(/\s+/g, " ");
    const slug = slugify(name);
    if (slug === "" || seen.has(slug)) continue;
    seen.add(slug);
    tags.push(name);
  }
  return { tags, rest: commit ? "" : rest.replace(/^\s+/, ""), changed: tags.length !== current.length };
}

/** Existing tag names for the autocomplete: names starting with the input first, none already on the post. */
export function tagSuggestions(all: TagItem[], input: string, current: string[], limit = 8): string[] {
  const query = input.trim().normalize("NFC").toLowerCase();
  if (query === "") return [];
  const taken = new Set(current.map(slugify));
  const fresh = all.filter((t) => !taken.has(t.slug));
  const starts = fresh.filter((t) => t.name.toLowerCase().startsWith(query) || t.slug.startsWith(query));
  const inside = fresh.filter((t) => !starts.includes(t) && t.name.toLowerCase().includes(query));
  return [...starts, ...inside].slice(0, limit).map((t) => t.name);
}

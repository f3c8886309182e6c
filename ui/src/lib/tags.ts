//! Tags as the sidebar shows them (`nccl (5)`, like the seed page) and as the
//! form's chip input reads them. Two tags are the same when the core gives them
//! the same slug; the slugs come in as a `SlugOf`.

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

/**
 * A tag name's slug as the core made it (`tagSlugs`, or a `PostItem`'s
 * `tagSlugs`), or undefined while the core has not said: the UI has no slug
 * rule of its own.
 */
export type SlugOf = (name: string) => string | undefined;

/** What makes two tags the same: their slug, or the exact name while the slug is unknown. */
function sameness(name: string, slugOf: SlugOf): string {
  const slug = slugOf(name);
  return slug === undefined ? `\u0000${name}` : slug;
}

/**
 * The chip input's finished names and what stays in the box: a comma (also the
 * full-width one of Korean keyboards) ends a name; `commit` (Enter, or leaving
 * the box) ends the last one too. Names are trimmed, inner spaces made one.
 */
export function splitTagInput(input: string, commit: boolean): { names: string[]; rest: string } {
  const parts = input.split(/[,，]/);
  const rest = commit ? "" : (parts.pop() ?? "");
  const names = parts.map((part) => part.trim().replace(/\s+/g, " ")).filter((name) => name !== "");
  return { names, rest: rest.replace(/^\s+/, "") };
}

/**
 * The post's tags with `names` added: one whose slug is already there (`NCCL`
 * when `nccl` is) is not added twice, nor one the core slugs to nothing.
 */
export function addTags(current: string[], names: string[], slugOf: SlugOf): { tags: string[]; changed: boolean } {
  const tags = [...current];
  const seen = new Set(current.map((t) => sameness(t, slugOf)));
  for (const name of names) {
    const key = sameness(name, slugOf);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    tags.push(name);
  }
  return { tags, changed: tags.length !== current.length };
}

export interface TagInput {
  /** The post's tags after the input was read. */
  tags: string[];
  /** What stays in the input box (an unfinished tag). */
  rest: string;
  /** Whether `tags` differs from the tags before. */
  changed: boolean;
}

/** `splitTagInput` then `addTags`: the chip input read at once, when every slug is known. */
export function readTagInput(current: string[], input: string, commit: boolean, slugOf: SlugOf): TagInput {
  const { names, rest } = splitTagInput(input, commit);
  return { ...addTags(current, names, slugOf), rest };
}

/** Existing tag names for the autocomplete: names starting with the input first, none already on the post. */
export function tagSuggestions(all: TagItem[], input: string, current: string[], slugOf: SlugOf, limit = 8): string[] {
  const query = input.trim().normalize("NFC").toLowerCase();
  if (query === "") return [];
  const taken = new Set(current.map((t) => sameness(t, slugOf)));
  const fresh = all.filter((t) => !taken.has(t.slug) && !current.includes(t.name));
  const starts = fresh.filter((t) => t.name.toLowerCase().startsWith(query) || t.slug.startsWith(query));
  const inside = fresh.filter((t) => !starts.includes(t) && t.name.toLowerCase().includes(query));
  return [...starts, ...inside].slice(0, limit).map((t) => t.name);
}

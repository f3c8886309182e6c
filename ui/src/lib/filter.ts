//! Which posts the sidebar shows: a clicked tag, the filter box (titles and tags
//! here, body text from the core's `searchText`), or all of them.

import type { PostItem } from "./types";

const fold = (s: string) => s.normalize("NFC").toLowerCase();

/** The filter box's words; a post must match every one. */
export function queryTerms(query: string): string[] {
  return fold(query).split(/\s+/).filter((t) => t.length > 0);
}

/** Whether every word of the query is in the post's title or one of its tags. */
export function matchesTitleOrTags(post: PostItem, terms: string[]): boolean {
  if (terms.length === 0) return true;
  const title = fold(post.title);
  const tags = post.tags.map(fold);
  return terms.every((t) => title.includes(t) || tags.some((tag) => tag.includes(t)));
}

/** Whether the post has the clicked tag: by the core's slugs, never by a rule of the UI's own. */
export function hasTag(post: PostItem, tagSlug: string): boolean {
  return post.tagSlugs.includes(tagSlug);
}

export interface PostFilter {
  query: string;
  /** A tag slug from the tag list, or null for "All Posts". */
  tag: string | null;
  /** Posts whose body matches `query`, from `searchText`; null while unknown. */
  bodyHits: ReadonlySet<string> | null;
}

/** The posts to list, in the order given (the core sends newest first). */
export function filterPosts(posts: PostItem[], filter: PostFilter): PostItem[] {
  const terms = queryTerms(filter.query);
  return posts.filter((post) => {
    if (filter.tag !== null && !hasTag(post, filter.tag)) return false;
    if (terms.length === 0) return true;
    return matchesTitleOrTags(post, terms) || (filter.bodyHits?.has(post.path) ?? false);
  });
}

/** Quick open: titles only, best first (a title starting with the query, then the rest in list order). */
export function quickOpenMatches(posts: PostItem[], query: string, limit = 50): PostItem[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return posts.slice(0, limit);
  const hits = posts.filter((p) => terms.every((t) => fold(p.title).includes(t)));
  const starts = hits.filter((p) => fold(p.title).startsWith(terms[0]));
  const rest = hits.filter((p) => !fold(p.title).startsWith(terms[0]));
  return [...starts, ...rest].slice(0, limit);
}

//! Tag names to slugs, as the core makes them: from the open blog's tags and
//! posts, and from `tagSlugs` for names typed into the form. The UI has no slug
//! rule of its own; a name the core has not answered for is simply not known.

import type * as api from "./api";
import type { SlugOf } from "./tags";
import type { BlogView } from "./types";

export type TagSlugApi = Pick<typeof api, "tagSlugs">;

export class TagSlugs {
  /** The core's answers for names it was asked about. */
  private answers = $state.raw<ReadonlyMap<string, string>>(new Map());
  /** Every name the blog already uses, with its slug. */
  private fromBlog = $derived.by(() => {
    const known = new Map<string, string>();
    const blog = this.blog();
    for (const tag of blog?.tags ?? []) known.set(tag.name, tag.slug);
    for (const post of blog?.posts ?? []) post.tags.forEach((name, i) => known.set(name, post.tagSlugs[i]));
    return known;
  });
  /** Counts blogs: an answer asked for in an earlier one is dropped (each tool has its slug rule). */
  private generation = 0;

  constructor(
    private readonly api: TagSlugApi,
    private readonly blog: () => BlogView | null,
  ) {}

  /** The slug of `name`, or undefined while not known. */
  readonly slugOf: SlugOf = (name) => this.answers.get(name) ?? this.fromBlog.get(name);

  /** Asks the core for the slugs of the names not known yet (at most one call). */
  async learn(names: string[]): Promise<void> {
    const unknown = [...new Set(names)].filter((name) => this.slugOf(name) === undefined);
    if (unknown.length === 0) return;
    const generation = this.generation;
    const slugs = await this.api.tagSlugs(unknown);
    if (generation !== this.generation) return;
    const answers = new Map(this.answers);
    unknown.forEach((name, i) => {
      if (typeof slugs[i] === "string") answers.set(name, slugs[i]);
    });
    this.answers = answers;
  }

  /** Another blog is open. */
  forget(): void {
    this.generation++;
    this.answers = new Map();
  }
}

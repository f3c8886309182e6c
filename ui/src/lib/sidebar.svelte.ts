//! The sidebar: which posts it lists (the filter box, with body hits from the
//! core's search, and a clicked tag, matched by the core's slugs), and renaming
//! or merging a tag across the blog, with Undo.

import { i18n } from "./i18n/index.svelte";
import type * as api from "./api";
import { filterPosts } from "./filter";
import type { Notices } from "./notices.svelte";
import type { OpenPosts } from "./posts.svelte";
import type { Session } from "./session.svelte";
import type { TagItem } from "./types";

export type SidebarApi = Pick<typeof api, "searchText" | "planRetag" | "retag" | "undoRetag">;

const SEARCH_DELAY_MS = 200;

const files = (n: number) => i18n.t.notices.files(n);

export class Sidebar {
  /** What is typed in the filter box. */
  query = $state("");
  /** The slug of the clicked tag, or null for "All Posts". */
  tag = $state<string | null>(null);
  private bodyHits = $state.raw<{ query: string; paths: Set<string> } | null>(null);

  visiblePosts = $derived.by(() =>
    filterPosts(this.session.blog?.posts ?? [], {
      query: this.query,
      tag: this.tag,
      bodyHits: this.bodyHits?.query === this.query.trim() ? this.bodyHits.paths : null,
    }),
  );

  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly api: SidebarApi,
    private readonly session: Pick<Session, "blog" | "listen">,
    private readonly posts: Pick<OpenPosts, "saveAll">,
    private readonly notices: Notices,
  ) {
    session.listen({
      closed: () => {
        clearTimeout(this.searchTimer);
        this.tag = null;
        this.query = "";
        this.bodyHits = null;
      },
    });
  }

  /** The filter box changed: titles and tags match now, body text a moment later. */
  setQuery(query: string): void {
    this.query = query;
    clearTimeout(this.searchTimer);
    const q = query.trim();
    if (q === "") {
      this.bodyHits = null;
      return;
    }
    this.searchTimer = setTimeout(async () => {
      try {
        const paths = await this.api.searchText(q);
        if (this.query.trim() === q) this.bodyHits = { query: q, paths: new Set(paths) };
      } catch (error) {
        this.notices.notifyError(error);
      }
    }, SEARCH_DELAY_MS);
  }

  filterByTag(slug: string | null): void {
    this.tag = slug;
  }

  /** Asks for the new name, shows what will change, renames (or merges) in every file, offers Undo. */
  async renameTag(tag: TagItem): Promise<void> {
    const answer = await this.notices.ask({
      title: i18n.t.modal.renameTag(tag.name),
      message: i18n.t.modal.renameTagMessage,
      input: { value: tag.name, label: i18n.t.modal.newName },
      ok: i18n.t.modal.next,
    });
    const to = answer?.trim();
    if (!to || to === tag.name) return;
    if (!(await this.posts.saveAll())) {
      this.notices.notify(i18n.t.notices.saveFirst, "error");
      return;
    }
    try {
      const plan = await this.api.planRetag(tag.name, to);
      if (plan.files.length === 0) {
        this.notices.notify(i18n.t.notices.noFileHasTag(plan.from));
        return;
      }
      const ask = plan.merge ? i18n.t.modal.mergeInto : i18n.t.modal.renameIn;
      const ok = await this.notices.ask({
        title: ask(plan.from, plan.to, files(plan.files.length)),
        list: plan.files,
        ok: plan.merge ? i18n.t.modal.merge : i18n.t.modal.rename,
      });
      if (ok === null) return;
      const done = await this.api.retag(plan.from, plan.to);
      // The filter follows the tag to its new slug, as the core makes it.
      if (this.tag === tag.slug) this.tag = plan.toSlug;
      const did = plan.merge ? i18n.t.notices.merged : i18n.t.notices.renamed;
      this.notices.notify(did(plan.from, plan.to, files(done.files.length)), "info", {
        label: i18n.t.app.undo,
        run: () => void this.undoRetag(done.batch),
      });
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  private async undoRetag(batch: number): Promise<void> {
    try {
      const put = await this.api.undoRetag(batch);
      this.notices.notify(i18n.t.notices.putBack(files(put.length)));
    } catch (error) {
      this.notices.notifyError(error);
    }
  }
}

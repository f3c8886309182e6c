//! The History panel: the saved versions of the shown post (each save keeps
//! the text it replaced, in the app's folder, and so do a tag rename and
//! another program's write; see the core's `history`), and
//! the one chosen, which the merge view shows beside the current text.
//! Restoring it, whole or hunk by hunk, is one ordinary edit of the post:
//! Undo brings the text back.

import { i18n } from "./i18n/index.svelte";
import type * as api from "./api";
import { asAppError, errorText } from "./errors";
import type { Notices } from "./notices.svelte";
import type { OpenPosts, PostTexts } from "./posts.svelte";
import type { Session } from "./session.svelte";
import type { VersionItem } from "./types";

export type HistoryApi = Pick<typeof api, "versions" | "readVersion">;

/** A version chosen to compare: its text beside the post's. */
export interface Chosen {
  path: string;
  id: string;
  savedAt: number;
  text: string;
}

export class History {
  /** The panel is open. */
  open = $state(false);
  /** The shown post's versions, newest first. */
  versions = $state.raw<VersionItem[]>([]);
  chosen = $state.raw<Chosen | null>(null);
  error = $state<string | null>(null);
  private asked = 0;

  constructor(
    private readonly api: HistoryApi,
    private readonly posts: Pick<OpenPosts, "current" | "listen">,
    private readonly texts: Pick<PostTexts, "replace">,
    private readonly notices: Pick<Notices, "notify">,
    session: Pick<Session, "listen">,
  ) {
    // A tag rename, or another program, wrote the shown post: the text it replaced is a version now.
    session.listen({
      changed: (change) => {
        if (change.changed.some((c) => c.path === this.posts.current)) void this.refresh();
      },
    });
    posts.listen({
      shown: () => {
        this.chosen = null;
        void this.refresh();
      },
      saved: (path) => {
        if (path === this.posts.current) void this.refresh();
      },
      moved: () => void this.refresh(),
      closedAll: () => {
        this.chosen = null;
        this.versions = [];
      },
    });
  }

  toggle(): void {
    this.open = !this.open;
    if (this.open) void this.refresh();
    else this.chosen = null;
  }

  /** Reads the shown post's versions again (only the last answer counts). */
  async refresh(): Promise<void> {
    const path = this.posts.current;
    const asked = ++this.asked;
    if (path === null || !this.open) {
      this.versions = [];
      return;
    }
    try {
      const versions = await this.api.versions(path);
      if (asked === this.asked) {
        this.versions = versions;
        this.error = null;
      }
    } catch (error) {
      if (asked === this.asked) this.error = errorText(asAppError(error));
    }
  }

  /** Shows version `id` of the shown post beside its text. */
  async choose(id: string): Promise<void> {
    const path = this.posts.current;
    const version = this.versions.find((v) => v.id === id);
    if (path === null || !version) return;
    try {
      const text = await this.api.readVersion(path, id);
      if (path === this.posts.current) this.chosen = { path, id, savedAt: version.savedAt, text };
    } catch (error) {
      this.error = errorText(asAppError(error));
    }
  }

  close(): void {
    this.chosen = null;
  }

  /** Makes the post's text `text` (the version, or what the merge view made of both), as one undoable edit. */
  async restore(text: string): Promise<void> {
    const chosen = this.chosen;
    if (!chosen) return;
    if (await this.texts.replace(chosen.path, text)) {
      this.chosen = null;
      this.notices.notify(i18n.t.notices.restored);
    }
  }
}

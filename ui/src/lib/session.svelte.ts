//! The session: which blog is open (as the core last described it), the recent
//! blogs, the settings the core sent, and the stream of changes on disk.
//! Opening another blog goes through here; the stores that hold more of the
//! blog (open posts, the sidebar) `listen` to follow it.

import type * as api from "./api";
import { asAppError } from "./errors";
import type { Notices } from "./notices.svelte";
import { applyPostsChange } from "./posts-list";
import { i18n } from "./i18n/index.svelte";
import type { AppError, BlogView, Diagnostic, ImportReport, Loading, Settings, WatchUpdate } from "./types";

export type SessionApi = Pick<
  typeof api,
  "start" | "openBlog" | "newBlog" | "importBlog" | "trySample" | "watch" | "saveSettings" | "onCloseRequested"
>;

/** What the New blog dialog asks for. */
export interface NewBlogFields {
  title: string;
  locale: string;
  author: string;
  folder: string;
}

export type BlogChange = Extract<WatchUpdate, { kind: "changed" }>;

/** What a store does when the session moves on; every part is optional. */
export interface SessionListener {
  /** Whether the blog may be left (another opened, the window closed): false keeps it. */
  leaving(): Promise<boolean>;
  /** The blog is being left for another: let go of what belongs to it. */
  closed(): Promise<void> | void;
  /** A blog is open (at start, or after a switch), and watched. */
  opened(blog: BlogView): Promise<void> | void;
  /** Files changed on disk; `session.blog` is already the new view. In order, one at a time. */
  changed(change: BlogChange): Promise<void> | void;
  /** The author changed a setting. */
  settings(settings: Settings): void;
}

export class Session {
  blog = $state.raw<BlogView | null>(null);
  recent = $state.raw<string[]>([]);
  /** What the core sent at start (its defaults filled in); null until then, and so no autosave. */
  settings = $state.raw<Settings | null>(null);
  startError = $state.raw<AppError | null>(null);
  starting = $state(true);
  /** How far reading the blog being opened has come; null when none is being opened. */
  loading = $state.raw<Loading | null>(null);
  /** Set while the blog folder is gone from disk. */
  folderGone = $state.raw<string | null>(null);
  /**
   * Every problem of the open blog as `hanji check` finds them, the unsaved
   * texts in: the core checks again after each change and sends the set.
   * Null until the first check of the blog is done.
   */
  problems = $state.raw<Diagnostic[] | null>(null);

  private readonly listeners: Partial<SessionListener>[] = [];
  /** Counts watch streams: updates from an earlier blog's stream are dropped. */
  private watchGeneration = 0;
  private changes: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: SessionApi,
    private readonly notices: Notices,
  ) {}

  listen(listener: Partial<SessionListener>): void {
    this.listeners.push(listener);
  }

  /** The blog from the command line, the last one, or the sample; and the close guard of the window. */
  async start(): Promise<void> {
    try {
      const info = await this.api.start((loading) => (this.loading = loading));
      this.recent = info.recent;
      this.settings = info.settings;
      i18n.preference = info.settings.language;
      this.startError = info.error;
      if (info.blog) {
        this.blog = info.blog;
        this.watch();
        if (info.error) this.notices.notifyError(info.error);
        void this.tell((l) => l.opened?.(info.blog!)).catch((error) => this.notices.notifyError(error));
      }
    } catch (error) {
      this.startError = asAppError(error);
    } finally {
      this.starting = false;
      this.loading = null;
    }
    this.api
      .onCloseRequested(async () => {
        // Throwing keeps the window open: never close over text that could not be saved.
        if (!(await this.mayLeave())) {
          this.notices.notify(i18n.t.notices.notClosing, "error");
          throw new Error("unsaved posts");
        }
      })
      .catch(() => {
        // Outside the app window (a plain browser) there is no window to watch.
      });
  }

  /** Opens another blog (the folder dialog without `path`), once everything open may be left. */
  open(path?: string): Promise<boolean> {
    return this.openWith((onLoading) => this.api.openBlog(path, onLoading));
  }

  /** Makes a new blog and opens it; true if it was made. */
  newBlog(fields: NewBlogFields): Promise<boolean> {
    return this.openWith((onLoading) => this.api.newBlog(fields, onLoading));
  }

  /**
   * Imports a hosted blog into a new folder and opens it; the import's report, or null if the open
   * blog may not be left. The import's own error is thrown, for the Import dialog to show with its hint.
   */
  async importBlog(fields: { source: string; folder: string }, onStep: (step: string) => void): Promise<ImportReport | null> {
    if (!(await this.mayLeave())) {
      this.notices.notify(i18n.t.notices.notSwitched, "error");
      return null;
    }
    try {
      const imported = await this.api.importBlog(fields, onStep, (loading) => (this.loading = loading));
      this.loading = null;
      await this.switchTo(imported.blog);
      return imported.report;
    } finally {
      this.loading = null;
    }
  }

  /** Opens a copy of the sample blog (made in the user's documents). */
  trySample(): Promise<boolean> {
    return this.openWith((onLoading) => this.api.trySample(onLoading));
  }

  /** Opens the blog `opening` gives, once everything open may be left; true if one was opened. */
  private async openWith(opening: (onLoading: (loading: Loading) => void) => Promise<BlogView | null>): Promise<boolean> {
    if (!(await this.mayLeave())) {
      this.notices.notify(i18n.t.notices.notSwitched, "error");
      return false;
    }
    try {
      const view = await opening((loading) => (this.loading = loading));
      this.loading = null;
      if (view) await this.switchTo(view);
      return view !== null;
    } catch (error) {
      this.loading = null;
      this.notices.notifyError(error);
      return false;
    }
  }

  /** Changes settings here at once (autosave follows), and in the app's config. */
  async updateSettings(patch: Partial<Settings>): Promise<void> {
    if (!this.settings) return;
    const next = { ...this.settings, ...patch };
    this.settings = next;
    i18n.preference = next.language;
    for (const l of this.listeners) l.settings?.(next);
    try {
      await this.api.saveSettings(next);
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  private async switchTo(view: BlogView): Promise<void> {
    // The old blog's stream is over: nothing more from it applies.
    this.watchGeneration++;
    await this.tell((l) => l.closed?.());
    this.blog = view;
    this.problems = null;
    this.startError = null;
    this.folderGone = null;
    this.recent = [view.root, ...this.recent.filter((r) => r !== view.root)];
    this.watch();
    await this.tell((l) => l.opened?.(view));
  }

  private async mayLeave(): Promise<boolean> {
    let ok = true;
    for (const l of this.listeners) if (l.leaving && !(await l.leaving())) ok = false;
    return ok;
  }

  private async tell(call: (listener: Partial<SessionListener>) => Promise<void> | void): Promise<void> {
    for (const l of this.listeners) await call(l);
  }

  private watch(): void {
    const generation = ++this.watchGeneration;
    this.api
      .watch((update) => {
        if (generation === this.watchGeneration) this.received(update);
      })
      .catch((error) => this.notices.notifyError(error));
  }

  private received(update: WatchUpdate): void {
    switch (update.kind) {
      case "changed": {
        const blog = this.blog;
        if (blog) {
          const { title, tags, locale, layout, watch } = update;
          this.blog = { ...blog, title, tags, locale, layout, watch, posts: applyPostsChange(blog.posts, update.posts) };
        }
        this.folderGone = null;
        const generation = this.watchGeneration;
        // One change at a time: a rename is followed before a later change under the new name.
        this.changes = this.changes
          .then(() => (generation === this.watchGeneration ? this.tell((l) => l.changed?.(update)) : undefined))
          .catch((error) => this.notices.notifyError(error));
        break;
      }
      case "gone":
        this.folderGone = update.message;
        this.notices.notify(update.message, "error");
        break;
      case "back":
        this.folderGone = null;
        this.notices.notify(update.message);
        break;
      case "notice":
        this.notices.notify(update.message);
        break;
      case "problems":
        this.problems = update.problems;
        break;
    }
  }
}

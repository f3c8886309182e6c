//! The open posts and their saving: which post is shown, each one's status
//! (version on disk, unsaved edits, a save in flight, a conflict with the disk,
//! a file gone), autosave, "Keep mine / Take theirs / Show both", changes and
//! removals on disk, renames, new posts and deletes, and text restored from the
//! journal. The texts themselves live in `PostTexts` (the editor);
//! the decisions are the pure transitions of `post-status` and `watch-plan`.

import type * as api from "./api";
import type { Buffers } from "./editor/buffers";
import { asAppError } from "./errors";
import { i18n } from "./i18n/index.svelte";
import type { Notices } from "./notices.svelte";
import {
  canAutosave,
  conflicted,
  edited,
  moved,
  opened,
  removedOnDisk,
  restored as restoredStatus,
  saveFailed,
  saveStarted,
  saved,
  tookDisk,
  type PostStatus,
} from "./post-status";
import type { BlogChange, Session } from "./session.svelte";
import type { PostText, Recovered } from "./types";
import { planWatch, type WatchAction } from "./watch-plan";

export type PostsApi = Pick<
  typeof api,
  | "readPost"
  | "savePost"
  | "overwritePost"
  | "forgetUnsaved"
  | "newPost"
  | "renamePost"
  | "deletePost"
  | "insertImage"
  | "saveImage"
>;

/** What the open posts need of the editor that holds their texts. */
export type PostTexts = Pick<
  Buffers,
    | "open"
  | "show"
  | "text"
  | "replace"
  | "insert"
  | "rename"
  | "close"
  | "closeAll"
  | "focus"
  | "goToLine"
  | "scrollToLine"
  | "top"
  | "spellIn"
>;

/** What other stores follow about the open posts; every part is optional. */
export interface PostListener {
  /** Runs before a save of `path` reads its text: work that must reach the text first (form edits). */
  beforeSave(path: string): Promise<void>;
  /** `path` is now the shown post. */
  shown(path: string): void;
  /** An open post's text changed (typing, the form, the disk). */
  edited(path: string, text: string): void;
  /** An open post moved (renamed here or on disk); `current` and the texts already follow. */
  moved(from: string, to: string): void;
  /** A post was saved (a version of it is kept in the history). */
  saved(path: string): void;
  /** A post was closed (deleted). */
  closed(path: string): void;
  /** Every post was closed (another blog opened). */
  closedAll(): void;
}

export class OpenPosts {
  /** Every open post's status, by path; their texts are in `texts`. */
  statuses = $state.raw<Record<string, PostStatus>>({});
  /** The post in the editor. */
  current = $state<string | null>(null);

  status = $derived(this.current === null ? null : (this.statuses[this.current] ?? null));
  /** The shown post as the sidebar lists it, if it is listed. */
  currentItem = $derived.by(() => this.session.blog?.posts.find((p) => p.path === this.current) ?? null);

  private readonly listeners: Partial<PostListener>[] = [];
  private readonly autosaveTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly savesInFlight = new Map<string, Promise<boolean>>();

  constructor(
    private readonly api: PostsApi,
    private readonly texts: PostTexts,
    private readonly session: Pick<Session, "blog" | "settings" | "listen">,
    private readonly notices: Notices,
  ) {
    session.listen({
      leaving: () => this.saveAll(),
      closed: () => this.closeAll(),
      changed: (change) => this.diskChanges(change),
      settings: () => {
        for (const path of Object.keys(this.statuses)) this.scheduleAutosave(path);
      },
    });
  }

  listen(listener: Partial<PostListener>): void {
    this.listeners.push(listener);
  }

  isOpen(path: string): boolean {
    return path in this.statuses;
  }

  // ---- Opening, making, renaming, deleting ----

  async openPost(path: string): Promise<void> {
    if (!this.statuses[path]) {
      try {
        this.adopt(await this.api.readPost(path));
      } catch (error) {
        this.notices.notifyError(error);
        return;
      }
    }
    await this.show(path);
  }

  async newPost(): Promise<void> {
    if (!this.session.blog) return;
    const title = await this.notices.ask({
      title: i18n.t.modal.newPost,
      input: { value: "", placeholder: i18n.t.modal.title, label: i18n.t.modal.title },
      ok: i18n.t.modal.create,
    });
    if (!title?.trim()) return;
    try {
      const post = await this.api.newPost(title.trim());
      this.adopt(post);
      await this.show(post.path);
      this.texts.focus();
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  /** Asks for a new slug (starting from the listed post's own) and renames the shown post. */
  async renameCurrent(): Promise<void> {
    const path = this.current;
    if (path === null) return;
    const oldSlug = this.currentItem?.slug ?? "";
    const answer = await this.notices.ask({
      title: i18n.t.modal.renamePost,
      message: i18n.t.modal.renameMessage,
      input: { value: oldSlug, label: i18n.t.modal.slug },
      ok: i18n.t.modal.rename,
    });
    const slug = answer?.trim();
    if (!slug || slug === oldSlug) return;
    if (!(await this.save(path))) return;
    try {
      const post = await this.api.renamePost(path, slug);
      this.move(path, post.path);
      const s = this.statuses[post.path];
      if (!s) return;
      const mine = this.texts.text(post.path);
      if (!s.dirty) {
        this.setStatus(tookDisk(s, post));
        if (mine !== post.text) await this.texts.replace(post.path, post.text);
      } else {
        this.setStatus({ ...s, version: post.version, savedText: post.text, dirty: mine !== post.text });
      }
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  /** Asks, then moves the shown post to the trash; `title` is how the author knows it. */
  async deleteCurrent(title: string): Promise<void> {
    const path = this.current;
    if (path === null) return;
    const ok = await this.notices.ask({
      title: i18n.t.modal.deletePost,
      message: i18n.t.modal.deleteMessage(title, path),
      ok: i18n.t.modal.delete,
      danger: true,
    });
    if (ok === null) return;
    try {
      // The core knows this removal for its own: the watcher reports it with `external: false`.
      const message = await this.api.deletePost(path);
      await this.close(path);
      this.notices.notify(message);
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  async insertImage(): Promise<void> {
    const path = this.current;
    if (path === null) return;
    try {
      const markdown = await this.api.insertImage(path);
      if (markdown) await this.texts.insert(path, markdown);
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  /** An image pasted or dropped into a post: saved beside it, its Markdown inserted. */
  async imageDropped(path: string, file: File): Promise<void> {
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const markdown = await this.api.saveImage(path, file.name || "image.png", bytes);
      await this.texts.insert(path, markdown);
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  /** Puts the cursor on `line` of `path`, if it is the shown post. */
  goToLine(path: string, line: number): void {
    if (this.current === path) this.texts.goToLine(line);
  }

  /** Called by the editor for every change of a post's text. Must not touch the editor itself. */
  edited(path: string, text: string): void {
    const s = this.statuses[path];
    if (!s) return;
    this.setStatus(edited(s, text));
    for (const l of this.listeners) l.edited?.(path, text);
    this.scheduleAutosave(path);
  }

  // ---- Saving ----

  /**
   * Saves one post if it has unsaved text; true when nothing is left unsaved.
   * An `auto` save (after a pause in typing) keeps a saved version in the
   * history only now and then; one the author asks for always does.
   */
  async save(path: string, auto = false): Promise<boolean> {
    for (const l of this.listeners) await l.beforeSave?.(path);
    await this.savesDone(path);
    const s = this.statuses[path];
    if (!s || !s.dirty) return true;
    if (s.conflict) {
      this.notices.notify(i18n.t.notices.changedOnDisk(path), "error");
      return false;
    }
    // A file that is gone is written again as new.
    return this.track(path, this.write(s, s.gone ? null : s.version, auto));
  }

  /** Saves every post with unsaved text; true when all of them were saved. */
  async saveAll(): Promise<boolean> {
    let ok = true;
    for (const s of Object.values(this.statuses)) {
      if (s.dirty && !(await this.save(s.path))) ok = false;
    }
    return ok;
  }

  private async savesDone(path: string): Promise<void> {
    for (let inFlight = this.savesInFlight.get(path); inFlight; inFlight = this.savesInFlight.get(path)) {
      await inFlight;
    }
  }

  /** One save of a post at a time: the next waits for this one (and its new version). */
  private async track(path: string, job: Promise<boolean>): Promise<boolean> {
    this.savesInFlight.set(path, job);
    try {
      return await job;
    } finally {
      if (this.savesInFlight.get(path) === job) this.savesInFlight.delete(path);
    }
  }

  /** Writes the editor's text if the file is still `version` (null: whatever is there). */
  private async write(s: PostStatus, version: string | null, auto = false): Promise<boolean> {
    const path = s.path;
    this.stopAutosave(path);
    const text = this.texts.text(path);
    this.setStatus(saveStarted(s));
    try {
      const result =
        version === null ? await this.api.overwritePost(path, text) : await this.api.savePost(path, text, version, auto);
      const now = this.statuses[path];
      if (!now) return true;
      // Another program wrote the file after this save reached it: that is news, not ours.
      const theirs = now.conflict && now.conflict.version !== result.version ? now.conflict : null;
      const after = saved(now, text, result.version, this.texts.text(path));
      this.setStatus(after);
      for (const l of this.listeners) l.saved?.(path);
      if (theirs) await this.diskChanged(path, theirs);
      else if (!after.dirty) this.api.forgetUnsaved(path).catch(() => {});
      else this.scheduleAutosave(path);
      return true;
    } catch (raw) {
      const error = asAppError(raw);
      if (error.kind === "conflict" && !error.theirs) {
        error.theirs = await this.api.readPost(path).catch(() => undefined);
      }
      const now = this.statuses[path];
      if (now) this.setStatus(saveFailed(now, error));
      if (error.kind !== "conflict") this.notices.notifyError(error);
      return false;
    }
  }

  private scheduleAutosave(path: string): void {
    this.stopAutosave(path);
    const s = this.statuses[path];
    // No settings yet (the core has not answered `start`): no autosave.
    const settings = this.session.settings;
    if (!settings?.autosave || !s || !canAutosave(s)) return;
    const timer = setTimeout(() => {
      this.autosaveTimers.delete(path);
      const now = this.statuses[path];
      if (now && canAutosave(now)) void this.save(path, true);
    }, settings.autosaveDelayMs);
    this.autosaveTimers.set(path, timer);
  }

  private stopAutosave(path: string): void {
    clearTimeout(this.autosaveTimers.get(path));
    this.autosaveTimers.delete(path);
  }

  // ---- Conflicts ----

  /** "Keep mine": write the editor's text over the version on disk now (a newer one is a new conflict). */
  async keepMine(path: string): Promise<void> {
    await this.savesDone(path);
    const s = this.statuses[path];
    if (!s) return;
    const version = s.gone ? null : (s.conflict?.version ?? s.version);
    await this.track(path, this.write({ ...s, conflict: null }, version));
  }

  /** "Take theirs": the editor gets the disk's text (undo brings mine back). */
  async takeTheirs(path: string): Promise<void> {
    const s = this.statuses[path];
    if (!s?.conflict) return;
    const theirs = s.conflict;
    this.setStatus(tookDisk(s, theirs));
    await this.texts.replace(path, theirs.text);
    this.api.forgetUnsaved(path).catch(() => {});
  }

  toggleShowBoth(path: string): void {
    const s = this.statuses[path];
    if (s?.conflict) this.setStatus({ ...s, showBoth: !s.showBoth });
  }

  // ---- The disk ----

  private async diskChanges(change: BlogChange): Promise<void> {
    const open = Object.values(this.statuses).map((s) => ({ path: s.path, dirty: s.dirty }));
    for (const action of planWatch(change, open)) await this.applyWatch(action);
  }

  private async applyWatch(action: WatchAction): Promise<void> {
    switch (action.kind) {
      case "follow": {
        this.move(action.from, action.to);
        // Our own rename: `renameCurrent` takes the new version from its answer.
        if (!action.external) return;
        // The bytes did not change with the name, but take the version the disk has now.
        try {
          const disk = await this.api.readPost(action.to);
          const s = this.statuses[action.to];
          if (s && disk.text === s.savedText) this.setStatus({ ...s, version: disk.version });
          else await this.diskChanged(action.to, disk);
        } catch (error) {
          this.notices.notifyError(error);
        }
        break;
      }
      case "gone": {
        const s = this.statuses[action.path];
        if (!s) return;
        this.setStatus(removedOnDisk(s));
        this.notices.notify(i18n.t.notices.removedFromDisk(action.path));
        break;
      }
      case "reload":
      case "conflict":
        await this.diskChanged(action.path);
        break;
    }
  }

  /** The file changed on disk: reload it quietly if nothing is unsaved, else ask. Never a silent overwrite. */
  private async diskChanged(path: string, known?: PostText): Promise<void> {
    let theirs: PostText;
    try {
      theirs = known ?? (await this.api.readPost(path));
    } catch (error) {
      this.notices.notifyError(error);
      return;
    }
    const s = this.statuses[path];
    if (!s) return;
    const mine = this.texts.text(path);
    if (theirs.text === mine) {
      this.setStatus(tookDisk(s, theirs));
    } else if (!s.dirty) {
      this.setStatus(tookDisk(s, theirs));
      if (!(await this.texts.replace(path, theirs.text, mine))) {
        // Typing came first (a composition ended while the reload waited): theirs is a conflict now.
        const now = this.statuses[path];
        const mineNow = now && { ...now, version: s.version, savedText: s.savedText, dirty: true };
        if (mineNow) this.setStatus(conflicted(mineNow, theirs));
      }
    } else {
      this.setStatus(conflicted(s, theirs));
    }
  }

  // ---- Unsaved text from before a crash ----

  /**
   * Puts text the journal kept into its post, opened and shown, beside the saved
   * file as a conflict (or unsaved, when the file is gone): nothing is written
   * until the author keeps one.
   */
  async restore(kept: Recovered): Promise<void> {
    if (!this.statuses[kept.path]) this.adopt(kept.saved ?? { path: kept.path, text: "", version: "" });
    await this.show(kept.path);
    await this.texts.replace(kept.path, kept.text);
    const s = this.statuses[kept.path];
    if (s) this.setStatus(restoredStatus(s, kept.saved));
  }

  // ---- Open, show, close, move ----

  private adopt(post: PostText): void {
    if (this.statuses[post.path]) return;
    this.texts.open(post.path, post.text);
    this.setStatus(opened(post));
  }

  private async show(path: string): Promise<void> {
    await this.texts.show(path);
    this.current = path;
    for (const l of this.listeners) l.shown?.(path);
  }

  private async close(path: string): Promise<void> {
    this.stopAutosave(path);
    await this.texts.close(path);
    if (this.current === path) this.current = null;
    this.statuses = without(this.statuses, path);
    for (const l of this.listeners) l.closed?.(path);
    this.api.forgetUnsaved(path).catch(() => {});
  }

  private async closeAll(): Promise<void> {
    for (const timer of this.autosaveTimers.values()) clearTimeout(timer);
    this.autosaveTimers.clear();
    await this.texts.closeAll();
    this.current = null;
    this.statuses = {};
    for (const l of this.listeners) l.closedAll?.();
  }

  /** The post moved from `from` to `to` (renamed here or on disk): everything follows. */
  private move(from: string, to: string): void {
    const s = this.statuses[from];
    if (!s || from === to) return;
    this.texts.rename(from, to);
    this.statuses = { ...without(this.statuses, from), [to]: moved(s, to) };
    const timer = this.autosaveTimers.get(from);
    if (timer) {
      this.stopAutosave(from);
      this.scheduleAutosave(to);
    }
    if (this.current === from) this.current = to;
    for (const l of this.listeners) l.moved?.(from, to);
  }

  private setStatus(s: PostStatus): void {
    if (this.statuses[s.path] !== s) this.statuses = { ...this.statuses, [s.path]: s };
  }
}

/** `record` without `key` (the same object when it has none). */
export function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

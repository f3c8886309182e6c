//! The app's state and what the author can do with it. Components read these
//! fields and call these methods; the decisions live in the pure modules beside
//! this one (post-status, watch-plan, fields, filter, …), the text in `Buffers`.

import * as api from "./api";
import { Buffers } from "./editor/buffers";
import { asAppError, errorText } from "./errors";
import { fieldEdit, type FieldEdit, type FormInput } from "./fields";
import { filterPosts } from "./filter";
import { Latest } from "./latest";
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
import { withVersion } from "./preview-url";
import { currentProblems } from "./problems";
import { slugify } from "./slug";
import type {
  AppError,
  BlogView,
  Diagnostic,
  ExportSummary,
  FieldKey,
  FieldValue,
  Fields,
  PostItem,
  PostText,
  Recovered,
  Preview,
  Settings,
  TagItem,
  WatchUpdate,
} from "./types";
import { planWatch, type WatchAction } from "./watch-plan";

export interface Toast {
  id: number;
  message: string;
  kind: "info" | "error";
  action?: { label: string; run: () => void };
}

/** A question in the modal: with `input` it asks for text, else it asks to confirm. */
export interface ModalRequest {
  title: string;
  message?: string;
  input?: { value: string; placeholder?: string; label?: string };
  /** Files or posts the question is about. */
  list?: string[];
  ok: string;
  danger?: boolean;
  /** The text typed ("" for a confirmation), or null when cancelled. */
  resolve: (answer: string | null) => void;
}

export type ExportState =
  | { phase: "running"; done: number; total: number }
  | { phase: "done"; summary: ExportSummary };

export type Panel = "problems" | "help" | "quickOpen" | "settings" | "blogMenu";

const DEFAULT_SETTINGS: Settings = { autosave: true, autosaveDelayMs: 2000, newPostAsBundle: false };
const SEARCH_DELAY_MS = 200;
const INFO_TOAST_MS = 6000;
const ACTION_TOAST_MS = 12000;

type Overlay = Partial<Record<FieldKey, FieldValue>>;

class Hanji {
  // The blog.
  blog = $state.raw<BlogView | null>(null);
  recent = $state.raw<string[]>([]);
  settings = $state.raw<Settings>(DEFAULT_SETTINGS);
  startError = $state.raw<AppError | null>(null);
  starting = $state(true);
  /** Set while the blog folder is gone from disk. */
  folderGone = $state.raw<string | null>(null);

  // Open posts: their status here, their text in `buffers`.
  statuses = $state.raw<Record<string, PostStatus>>({});
  current = $state<string | null>(null);
  previews = $state.raw<Record<string, Preview>>({});
  previewError = $state.raw<string | null>(null);
  /** Counts preview results, so the iframe loads each one. */
  previewVersion = $state(0);
  /** The source line at the top of the editor. */
  topLine = $state(1);
  previewMode = $state<"post" | "site">("post");
  sitePage = $state("index.html");
  siteVersion = $state(0);
  /** Form edits sent to the text but not yet read back by a preview. */
  private overlays = $state.raw<Record<string, Overlay>>({});

  // The sidebar.
  query = $state("");
  tag = $state<string | null>(null);
  private bodyHits = $state.raw<{ query: string; paths: Set<string> } | null>(null);

  // Around the editor.
  toasts = $state.raw<Toast[]>([]);
  modal = $state.raw<ModalRequest | null>(null);
  panel = $state<Panel | null>(null);
  exporting = $state.raw<ExportState | null>(null);

  readonly buffers = new Buffers({
    changed: (path, text) => this.onEdited(path, text),
    scrolled: (line) => (this.topLine = line),
    image: (path, file) => void this.saveDroppedImage(path, file),
  });

  visiblePosts = $derived(
    filterPosts(this.blog?.posts ?? [], {
      query: this.query,
      tag: this.tag,
      bodyHits: this.bodyHits?.query === this.query.trim() ? this.bodyHits.paths : null,
    }),
  );
  status = $derived(this.current === null ? null : (this.statuses[this.current] ?? null));
  preview = $derived(this.current === null ? null : (this.previews[this.current] ?? null));
  /** The fields the form shows: the preview's, with edits still on their way applied. */
  fields = $derived.by((): Fields | null => {
    const p = this.preview;
    if (!p || this.current === null) return null;
    const overlay = this.overlays[this.current];
    return overlay ? ({ ...p.fields, ...overlay } as Fields) : p.fields;
  });
  problems = $derived(currentProblems(this.blog?.problems ?? [], this.current, this.preview?.problems ?? null));
  currentItem = $derived(this.blog?.posts.find((p) => p.path === this.current) ?? null);
  previewPage = $derived.by((): string | null => {
    if (this.previewMode === "site") return this.blog ? withVersion(api.previewUrl(this.sitePage), this.siteVersion) : null;
    return this.preview ? withVersion(this.preview.url, this.previewVersion) : null;
  });

  private watchGeneration = 0;
  private toastId = 0;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly autosaveTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly savesInFlight = new Map<string, Promise<boolean>>();
  /** Posts being deleted here, so their removal on disk is not news. */
  private readonly deleting = new Set<string>();
  private readonly fieldJobs = new Map<string, { path: string } & FieldEdit>();
  private readonly fieldWrites = new Map<string, number>();
  private writingFields = false;
  private fieldWaiters: (() => void)[] = [];

  private readonly previewRunner = new Latest<{ path: string; text: string }, Preview>(
    ({ path, text }) => api.preview(path, text),
    (input, result) => this.previewed(input, result),
    (input, error) => {
      if (input.path === this.current) this.previewError = errorText(asAppError(error));
    },
  );

  // ---- Start, blogs, watching ----

  async init(): Promise<void> {
    try {
      const info = await api.start();
      this.recent = info.recent;
      this.settings = info.settings;
      this.startError = info.error;
      if (info.blog) {
        this.blog = info.blog;
        this.startWatching();
        if (info.error) this.notifyError(info.error);
        void this.offerRecovered();
      }
    } catch (error) {
      this.startError = asAppError(error);
    } finally {
      this.starting = false;
    }
    api
      .onCloseRequested(async () => {
        // Throwing keeps the window open: never close over text that could not be saved.
        if (!(await this.saveAll())) {
          this.notify("Not closing: some posts are not saved. Save them, or resolve their changes on disk.", "error");
          throw new Error("unsaved posts");
        }
      })
      .catch(() => {
        // Outside the app window (a plain browser) there is no window to watch.
      });
  }

  /** Opens another blog (the folder dialog without `path`), after saving every post. */
  async openBlog(path?: string): Promise<void> {
    this.panel = null;
    if (!(await this.saveAll())) {
      this.notify("Some posts could not be saved, so the blog was not switched.", "error");
      return;
    }
    try {
      const view = await api.openBlog(path);
      if (view) await this.switchTo(view);
    } catch (error) {
      this.notifyError(error);
    }
  }

  private async switchTo(view: BlogView): Promise<void> {
    for (const timer of this.autosaveTimers.values()) clearTimeout(timer);
    this.autosaveTimers.clear();
    this.previewRunner.cancel();
    this.fieldJobs.clear();
    await this.buffers.closeAll();
    this.current = null;
    this.statuses = {};
    this.previews = {};
    this.overlays = {};
    this.previewError = null;
    this.tag = null;
    this.query = "";
    this.bodyHits = null;
    this.blog = view;
    this.startError = null;
    this.folderGone = null;
    this.recent = [view.root, ...this.recent.filter((r) => r !== view.root)];
    this.startWatching();
    await this.offerRecovered();
  }

  /** Offers back the unsaved text the journal kept when the app last closed without saving. */
  private async offerRecovered(): Promise<void> {
    let pending: Recovered[];
    try {
      pending = await api.recovered();
    } catch (error) {
      this.notifyError(error);
      return;
    }
    if (pending.length === 0) return;
    const answer = await this.ask({
      title: "Restore unsaved text?",
      message:
        "Hanji closed before these posts were saved. Restore their unsaved text? Each opens beside its saved version, and nothing is written until you choose which to keep.",
      list: pending.map((kept) => kept.path),
      ok: "Restore",
    });
    if (answer === null) {
      for (const kept of pending) await api.discardRecovered(kept.path).catch((error) => this.notifyError(error));
      return;
    }
    for (const kept of pending) await this.restore(kept);
  }

  private async restore(kept: Recovered): Promise<void> {
    if (!this.statuses[kept.path]) this.adopt(kept.saved ?? { path: kept.path, text: "", version: "" });
    await this.show(kept.path);
    await this.buffers.replace(kept.path, kept.text);
    const s = this.statuses[kept.path];
    if (s) this.setStatus(restoredStatus(s, kept.saved));
  }

  private startWatching(): void {
    const generation = ++this.watchGeneration;
    api
      .watch((update) => {
        if (generation === this.watchGeneration) void this.onWatch(update);
      })
      .catch((error) => this.notifyError(error));
  }

  private async onWatch(update: WatchUpdate): Promise<void> {
    switch (update.kind) {
      case "changed": {
        this.blog = update.blog;
        this.folderGone = null;
        const open = Object.values(this.statuses).map((s) => ({ path: s.path, dirty: s.dirty }));
        for (const action of planWatch(update, open)) await this.applyWatch(action);
        break;
      }
      case "gone":
        this.folderGone = update.message;
        this.notify(update.message, "error");
        break;
      case "back":
        this.folderGone = null;
        this.notify(update.message);
        break;
      case "notice":
        this.notify(update.message);
        break;
    }
  }

  private async applyWatch(action: WatchAction): Promise<void> {
    switch (action.kind) {
      case "follow": {
        this.movePost(action.from, action.to);
        // The bytes did not change with the name, but take the version the disk has now.
        try {
          const disk = await api.readPost(action.to);
          const s = this.statuses[action.to];
          if (s && disk.text === s.savedText) this.setStatus({ ...s, version: disk.version });
          else await this.diskChanged(action.to, disk);
        } catch (error) {
          this.notifyError(error);
        }
        break;
      }
      case "gone": {
        const s = this.statuses[action.path];
        if (!s || this.deleting.has(action.path)) return;
        this.setStatus(removedOnDisk(s));
        this.notify(`${action.path} was removed from disk. Its text is still here, unsaved; save to write it again.`);
        break;
      }
      case "reload":
      case "conflict":
        await this.diskChanged(action.path);
        break;
    }
  }

  /** The file changed on disk: reload it quietly if nothing is unsaved, else ask. */
  private async diskChanged(path: string, known?: PostText): Promise<void> {
    let theirs: PostText;
    try {
      theirs = known ?? (await api.readPost(path));
    } catch (error) {
      this.notifyError(error);
      return;
    }
    const s = this.statuses[path];
    if (!s) return;
    const mine = this.buffers.text(path);
    if (theirs.text === mine) {
      this.setStatus(tookDisk(s, theirs));
    } else if (!s.dirty) {
      this.setStatus(tookDisk(s, theirs));
      await this.buffers.replace(path, theirs.text);
    } else {
      this.setStatus(conflicted(s, theirs));
    }
  }

  // ---- Posts ----

  async openPost(path: string): Promise<void> {
    if (!this.statuses[path]) {
      try {
        const post = await api.readPost(path);
        this.adopt(post);
      } catch (error) {
        this.notifyError(error);
        return;
      }
    }
    await this.show(path);
  }

  private adopt(post: PostText): void {
    if (this.statuses[post.path]) return;
    this.buffers.open(post.path, post.text);
    this.setStatus(opened(post));
  }

  private async show(path: string): Promise<void> {
    await this.buffers.show(path);
    this.current = path;
    this.previewError = null;
    this.topLine = this.buffers.top;
    this.previewRunner.request({ path, text: this.buffers.text(path) });
  }

  async newPost(): Promise<void> {
    if (!this.blog) return;
    const title = await this.ask({
      title: "New post",
      input: { value: "", placeholder: "Title", label: "Title" },
      ok: "Create",
    });
    if (!title?.trim()) return;
    try {
      const post = await api.newPost(title.trim());
      this.adopt(post);
      await this.show(post.path);
      this.buffers.focus();
    } catch (error) {
      this.notifyError(error);
    }
  }

  async renameCurrent(): Promise<void> {
    const path = this.current;
    if (path === null) return;
    const oldSlug = this.currentItem?.slug ?? slugFromPath(path);
    const answer = await this.ask({
      title: "Rename post",
      message: "The new slug: the post's address and its file name.",
      input: { value: oldSlug, label: "Slug" },
      ok: "Rename",
    });
    const slug = answer?.trim();
    if (!slug || slug === oldSlug) return;
    if (!(await this.save(path))) return;
    try {
      const post = await api.renamePost(path, slug);
      this.movePost(path, post.path);
      const s = this.statuses[post.path];
      if (!s) return;
      const mine = this.buffers.text(post.path);
      if (!s.dirty) {
        this.setStatus(tookDisk(s, post));
        if (mine !== post.text) await this.buffers.replace(post.path, post.text);
      } else {
        this.setStatus({ ...s, version: post.version, savedText: post.text, dirty: mine !== post.text });
      }
      this.previewRunner.request({ path: post.path, text: this.buffers.text(post.path) });
    } catch (error) {
      this.notifyError(error);
    }
  }

  async deleteCurrent(): Promise<void> {
    const path = this.current;
    if (path === null) return;
    const title = this.fields?.title || this.currentItem?.title || path;
    const ok = await this.ask({
      title: "Delete post",
      message: `Move “${title}” (${path}) to the trash?`,
      ok: "Delete",
      danger: true,
    });
    if (ok === null) return;
    this.deleting.add(path);
    try {
      const message = await api.deletePost(path);
      await this.closePost(path);
      this.notify(message);
    } catch (error) {
      this.notifyError(error);
    } finally {
      // The watcher reports the removal soon after; until then it is ours, not news.
      setTimeout(() => this.deleting.delete(path), 5000);
    }
  }

  private async closePost(path: string): Promise<void> {
    clearTimeout(this.autosaveTimers.get(path));
    this.autosaveTimers.delete(path);
    await this.buffers.close(path);
    if (this.current === path) this.current = null;
    this.statuses = without(this.statuses, path);
    this.previews = without(this.previews, path);
    this.overlays = without(this.overlays, path);
    api.forgetUnsaved(path).catch(() => {});
  }

  /** The post moved from `from` to `to` (renamed here or on disk): everything follows. */
  private movePost(from: string, to: string): void {
    const s = this.statuses[from];
    if (!s || from === to) return;
    this.buffers.rename(from, to);
    this.statuses = { ...without(this.statuses, from), [to]: moved(s, to) };
    const preview = this.previews[from];
    this.previews = preview ? { ...without(this.previews, from), [to]: preview } : this.previews;
    const overlay = this.overlays[from];
    this.overlays = overlay ? { ...without(this.overlays, from), [to]: overlay } : this.overlays;
    const timer = this.autosaveTimers.get(from);
    if (timer) {
      clearTimeout(timer);
      this.autosaveTimers.delete(from);
      this.scheduleAutosave(to);
    }
    if (this.current === from) this.current = to;
  }

  // ---- Editing, preview, the form ----

  /** Called by the editor for every change of a post's text. Must not touch the editor itself. */
  private onEdited(path: string, text: string): void {
    const s = this.statuses[path];
    if (!s) return;
    this.setStatus(edited(s, text));
    if (path === this.current) this.previewRunner.request({ path, text });
    this.scheduleAutosave(path);
  }

  private previewed(input: { path: string; text: string }, result: Preview): void {
    if (!this.statuses[input.path]) return;
    this.previews = { ...this.previews, [input.path]: result };
    const upToDate = input.text === this.buffers.text(input.path) && !this.fieldWrites.get(input.path);
    if (upToDate && this.overlays[input.path]) this.overlays = without(this.overlays, input.path);
    if (input.path === this.current) {
      this.previewError = null;
      this.previewVersion++;
    }
  }

  /** A form edit: becomes one `setField` and one minimal change of the text. */
  editField(input: FormInput): void {
    const path = this.current;
    const fields = this.fields;
    if (path === null || !fields) return;
    const edit = fieldEdit(fields, input);
    if (!edit) return;
    this.overlays = { ...this.overlays, [path]: { ...this.overlays[path], [edit.key]: edit.value } };
    const id = `${path}\n${edit.key}`;
    // A newer value for a field still waiting replaces it: one write, counted once.
    if (!this.fieldJobs.has(id)) this.fieldWrites.set(path, (this.fieldWrites.get(path) ?? 0) + 1);
    this.fieldJobs.set(id, { path, ...edit });
    void this.writeFields();
  }

  /** Writes queued form edits one at a time, each on the text as it is when its answer comes back. */
  private async writeFields(): Promise<void> {
    if (this.writingFields) return;
    this.writingFields = true;
    try {
      for (let next = this.fieldJobs.entries().next(); !next.done; next = this.fieldJobs.entries().next()) {
        const [id, job] = next.value;
        this.fieldJobs.delete(id);
        try {
          for (let attempt = 0; attempt < 5 && this.statuses[job.path]; attempt++) {
            const base = this.buffers.text(job.path);
            const text = await api.setField(base, job.key, job.value);
            // Typing went on while the core worked: do it again on the newer text.
            if (await this.buffers.replace(job.path, text, base)) break;
          }
        } catch (error) {
          this.notifyError(error);
          this.overlays = without(this.overlays, job.path);
        } finally {
          const left = (this.fieldWrites.get(job.path) ?? 1) - 1;
          if (left > 0) this.fieldWrites.set(job.path, left);
          else this.fieldWrites.delete(job.path);
        }
      }
    } finally {
      this.writingFields = false;
      for (const resolve of this.fieldWaiters.splice(0)) resolve();
    }
  }

  /** Resolves when every form edit has reached the text (a save must include them). */
  private fieldsSettled(): Promise<void> {
    if (!this.writingFields && this.fieldJobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.fieldWaiters.push(resolve));
  }

  async insertImage(): Promise<void> {
    const path = this.current;
    if (path === null) return;
    try {
      const markdown = await api.insertImage(path);
      if (markdown) await this.buffers.insert(path, markdown);
    } catch (error) {
      this.notifyError(error);
    }
  }

  private async saveDroppedImage(path: string, file: File): Promise<void> {
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const markdown = await api.saveImage(path, file.name || "image.png", bytes);
      await this.buffers.insert(path, markdown);
    } catch (error) {
      this.notifyError(error);
    }
  }

  // ---- Saving ----

  /** Saves one post if it has unsaved text; true when nothing is left unsaved. */
  async save(path: string): Promise<boolean> {
    await this.fieldsSettled();
    for (let inFlight = this.savesInFlight.get(path); inFlight; inFlight = this.savesInFlight.get(path)) {
      await inFlight;
    }
    const s = this.statuses[path];
    if (!s || !s.dirty) return true;
    if (s.conflict) {
      this.notify(`${path} changed on disk: keep yours or take theirs first.`, "error");
      return false;
    }
    return this.track(path, this.write(s));
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

  private async write(s: PostStatus, overwrite = false): Promise<boolean> {
    const path = s.path;
    clearTimeout(this.autosaveTimers.get(path));
    this.autosaveTimers.delete(path);
    const text = this.buffers.text(path);
    this.setStatus(saveStarted(s));
    try {
      // A file that is gone is written again as new; "keep mine" overwrites knowingly.
      const result =
        overwrite || s.gone ? await api.overwritePost(path, text) : await api.savePost(path, text, s.version);
      const now = this.statuses[path];
      if (!now) return true;
      const after = saved(now, text, result.version, this.buffers.text(path));
      this.setStatus(after);
      if (!after.dirty) api.forgetUnsaved(path).catch(() => {});
      else this.scheduleAutosave(path);
      return true;
    } catch (raw) {
      const error = asAppError(raw);
      if (error.kind === "conflict" && !error.theirs) {
        error.theirs = await api.readPost(path).catch(() => null);
      }
      const now = this.statuses[path];
      if (now) this.setStatus(saveFailed(now, error));
      if (error.kind !== "conflict") this.notifyError(error);
      return false;
    }
  }

  /** Saves every post with unsaved text; true when all of them were saved. */
  async saveAll(): Promise<boolean> {
    let ok = true;
    for (const s of Object.values(this.statuses)) {
      if (s.dirty && !(await this.save(s.path))) ok = false;
    }
    return ok;
  }

  private scheduleAutosave(path: string): void {
    clearTimeout(this.autosaveTimers.get(path));
    this.autosaveTimers.delete(path);
    const s = this.statuses[path];
    if (!this.settings.autosave || !s || !canAutosave(s)) return;
    const timer = setTimeout(() => {
      this.autosaveTimers.delete(path);
      const now = this.statuses[path];
      if (now && canAutosave(now)) void this.save(path);
    }, this.settings.autosaveDelayMs);
    this.autosaveTimers.set(path, timer);
  }

  // ---- Conflicts ----

  /** "Keep mine": write the editor's text over what is on disk. */
  async keepMine(path: string): Promise<void> {
    for (let inFlight = this.savesInFlight.get(path); inFlight; inFlight = this.savesInFlight.get(path)) {
      await inFlight;
    }
    const s = this.statuses[path];
    if (!s) return;
    await this.track(path, this.write({ ...s, conflict: null }, true));
  }

  /** "Take theirs": the editor gets the disk's text (undo brings mine back). */
  async takeTheirs(path: string): Promise<void> {
    const s = this.statuses[path];
    if (!s?.conflict) return;
    const theirs = s.conflict;
    this.setStatus(tookDisk(s, theirs));
    await this.buffers.replace(path, theirs.text);
    api.forgetUnsaved(path).catch(() => {});
  }

  toggleShowBoth(path: string): void {
    const s = this.statuses[path];
    if (s?.conflict) this.setStatus({ ...s, showBoth: !s.showBoth });
  }

  // ---- Sidebar ----

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
        const paths = await api.searchText(q);
        if (this.query.trim() === q) this.bodyHits = { query: q, paths: new Set(paths) };
      } catch (error) {
        this.notifyError(error);
      }
    }, SEARCH_DELAY_MS);
  }

  filterByTag(slug: string | null): void {
    this.tag = slug;
  }

  async renameTag(tag: TagItem): Promise<void> {
    const answer = await this.ask({
      title: `Rename tag “${tag.name}”`,
      message: "Every post with this tag gets the new name. An existing tag's name merges the two.",
      input: { value: tag.name, label: "New name" },
      ok: "Next",
    });
    const to = answer?.trim();
    if (!to || to === tag.name) return;
    if (!(await this.saveAll())) {
      this.notify("Save or resolve the open posts first; the tag was not renamed.", "error");
      return;
    }
    try {
      const plan = await api.planRetag(tag.name, to);
      const files = plan.files.length;
      const what = plan.merge ? `Merge ‘${plan.from}’ into ‘${plan.to}’` : `Rename ‘${plan.from}’ to ‘${plan.to}’`;
      const where = `in ${files} ${files === 1 ? "file" : "files"}`;
      if (files === 0) {
        this.notify(`No file has the tag ‘${plan.from}’.`);
        return;
      }
      const ok = await this.ask({ title: `${what} ${where}?`, list: plan.files, ok: plan.merge ? "Merge" : "Rename" });
      if (ok === null) return;
      const done = await api.retag(plan.from, plan.to);
      if (this.tag === tag.slug) this.tag = slugify(plan.to);
      const did = plan.merge ? `Merged ‘${plan.from}’ into ‘${plan.to}’` : `Renamed ‘${plan.from}’ to ‘${plan.to}’`;
      const count = done.files.length;
      this.notify(`${did} in ${count} ${count === 1 ? "file" : "files"}.`, "info", {
        label: "Undo",
        run: () => void this.undoRetag(done.batch),
      });
    } catch (error) {
      this.notifyError(error);
    }
  }

  private async undoRetag(batch: number): Promise<void> {
    try {
      const files = await api.undoRetag(batch);
      this.notify(`Put back ${files.length} ${files.length === 1 ? "file" : "files"}.`);
    } catch (error) {
      this.notifyError(error);
    }
  }

  // ---- Problems, export, settings ----

  async goToProblem(problem: Diagnostic): Promise<void> {
    const isPost = this.statuses[problem.path] || this.blog?.posts.some((p: PostItem) => p.path === problem.path);
    if (!isPost) {
      this.notify(`${problem.path} is not a post: open it in another editor to fix it.`);
      return;
    }
    this.panel = null;
    await this.openPost(problem.path);
    if (this.current === problem.path) this.buffers.goToLine(problem.line);
  }

  async exportSite(): Promise<void> {
    if (!this.blog || this.exporting?.phase === "running") return;
    // The export reads the files: write what the author sees first.
    await this.saveAll();
    this.exporting = { phase: "running", done: 0, total: 0 };
    try {
      const summary = await api.exportBlog(null, (p) => {
        if (this.exporting?.phase === "running") this.exporting = { phase: "running", done: p.done, total: p.total };
      });
      this.exporting = summary ? { phase: "done", summary } : null;
    } catch (error) {
      this.exporting = null;
      this.notifyError(error);
    }
  }

  async showFolder(path: string): Promise<void> {
    try {
      await api.showFolder(path);
    } catch (error) {
      this.notifyError(error);
    }
  }

  async updateSettings(patch: Partial<Settings>): Promise<void> {
    const next = { ...this.settings, ...patch };
    this.settings = next;
    for (const path of Object.keys(this.statuses)) this.scheduleAutosave(path);
    try {
      await api.saveSettings(next);
    } catch (error) {
      this.notifyError(error);
    }
  }

  showSite(page: string): void {
    this.previewMode = "site";
    this.sitePage = page;
    this.siteVersion++;
  }

  showPostPreview(): void {
    this.previewMode = "post";
  }

  // ---- Notices and questions ----

  notify(message: string, kind: Toast["kind"] = "info", action?: Toast["action"]): void {
    const id = ++this.toastId;
    this.toasts = [...this.toasts, { id, message, kind, ...(action ? { action } : {}) }];
    if (kind === "info") setTimeout(() => this.dismiss(id), action ? ACTION_TOAST_MS : INFO_TOAST_MS);
  }

  notifyError(error: unknown): void {
    const e = asAppError(error);
    if (e.kind === "cancelled") return;
    this.notify(errorText(e), "error");
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  /** Asks in the modal; resolves with the answer, or null when cancelled. */
  ask(request: Omit<ModalRequest, "resolve">): Promise<string | null> {
    this.modal?.resolve(null);
    return new Promise((resolve) => {
      this.modal = {
        ...request,
        resolve: (answer) => {
          this.modal = null;
          resolve(answer);
        },
      };
    });
  }

  // ---- Helpers ----

  private setStatus(s: PostStatus): void {
    if (this.statuses[s.path] !== s) this.statuses = { ...this.statuses, [s.path]: s };
  }
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** `posts/a.md` → `a`, `posts/a/index.md` → `a`. */
function slugFromPath(path: string): string {
  const parts = path.split("/");
  const file = parts.pop() ?? path;
  const stem = file.replace(/\.md$/, "");
  return stem === "index" ? (parts.pop() ?? stem) : stem;
}

export const app = new Hanji();

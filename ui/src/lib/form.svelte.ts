//! The front matter form: the fields it shows (the latest render's, with edits
//! still on their way laid over them), each edit made into one `setField` and
//! one minimal change of the text, written one at a time, and the tag chips
//! (duplicates and suggestions by the core's slugs). A save waits for all of it.

import type * as api from "./api";
import { fieldEdit, type FieldEdit, type FormInput } from "./fields";
import type { Notices } from "./notices.svelte";
import { without, type OpenPosts, type PostTexts } from "./posts.svelte";
import type { PreviewPane } from "./preview.svelte";
import type { Session } from "./session.svelte";
import { TagSlugs } from "./tag-slugs.svelte";
import { addTags, tagSuggestions } from "./tags";
import type { FieldKey, FieldValue, Fields } from "./types";

export type FormApi = Pick<typeof api, "setField" | "tagSlugs">;

/** Form edits sent to the text but not yet read back by a render. */
type Overlay = Partial<Record<FieldKey, FieldValue>>;

/** How often one edit is made again on newer text before it gives up (typing never stops). */
const ATTEMPTS = 5;

export class FrontMatterForm {
  /** The shown post's fields, or null until it has been rendered. */
  fields = $derived.by(() => (this.posts.current === null ? null : this.fieldsOf(this.posts.current)));

  readonly slugs: TagSlugs;

  private overlays = $state.raw<Record<string, Overlay>>({});
  private readonly jobs = new Map<string, { path: string } & FieldEdit>();
  /** Edits per post not yet in its text: a render before they land is not the form's truth yet. */
  private readonly writes = new Map<string, number>();
  private writing = false;
  /** Tag chips waiting for the core's slugs, in the order they were typed. */
  private tagsWaiting = 0;
  private tagQueue: Promise<void> = Promise.resolve();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly api: FormApi,
    private readonly posts: Pick<OpenPosts, "current" | "isOpen" | "listen">,
    private readonly texts: Pick<PostTexts, "text" | "replace">,
    private readonly preview: Pick<PreviewPane, "byPath" | "onRendered">,
    private readonly session: Pick<Session, "blog" | "listen">,
    private readonly notices: Notices,
  ) {
    this.slugs = new TagSlugs(api, () => session.blog);
    posts.listen({
      beforeSave: () => this.settled(),
      moved: (from, to) => {
        const overlay = this.overlays[from];
        if (overlay) this.overlays = { ...without(this.overlays, from), [to]: overlay };
      },
      closed: (path) => {
        this.overlays = without(this.overlays, path);
      },
      closedAll: () => {
        this.jobs.clear();
        this.overlays = {};
      },
    });
    preview.onRendered((path, text, result) => {
      const upToDate = text === this.texts.text(path) && !this.writes.get(path);
      if (upToDate && this.overlays[path]) this.overlays = without(this.overlays, path);
      // So that suggestions leave out the post's own tags.
      this.slugs.learn(result.fields.tags).catch(() => {});
    });
    session.listen({ closed: () => this.slugs.forget() });
  }

  /** The fields the form shows for `path`: the render's, with edits still on their way applied. */
  fieldsOf(path: string): Fields | null {
    const rendered = this.preview.byPath[path];
    if (!rendered) return null;
    const overlay = this.overlays[path];
    return overlay ? ({ ...rendered.fields, ...overlay } as Fields) : rendered.fields;
  }

  /** An edit in the form of the shown post. */
  editField(input: FormInput): void {
    const path = this.posts.current;
    const fields = this.fields;
    if (path === null || !fields) return;
    this.edit(path, fields, input);
  }

  /** Tags typed into the chip input: added once the core has said which are the same as one already there. */
  addTags(names: string[]): void {
    const path = this.posts.current;
    if (path === null || names.length === 0) return;
    this.tagsWaiting++;
    this.tagQueue = this.tagQueue
      .then(() => this.addTagsTo(path, names))
      .catch((error) => this.notices.notifyError(error))
      .finally(() => {
        this.tagsWaiting--;
        this.wake();
      });
  }

  /** Existing tags to suggest for what is typed, none the shown post has. */
  tagSuggestions(input: string): string[] {
    return tagSuggestions(this.session.blog?.tags ?? [], input, this.fields?.tags ?? [], this.slugs.slugOf);
  }

  /** Resolves when every form edit has reached the text (a save must include them). */
  settled(): Promise<void> {
    if (this.quiet()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private async addTagsTo(path: string, names: string[]): Promise<void> {
    try {
      await this.slugs.learn([...(this.fieldsOf(path)?.tags ?? []), ...names]);
    } catch (error) {
      // Then the names the core has not slugged are compared as they are.
      this.notices.notifyError(error);
    }
    // Read the tags now: chips may have been added or removed while the core answered.
    const fields = this.fieldsOf(path);
    if (!fields || !this.posts.isOpen(path)) return;
    const { tags, changed } = addTags(fields.tags, names, this.slugs.slugOf);
    if (changed) this.edit(path, fields, { key: "tags", value: tags });
  }

  private edit(path: string, fields: Fields, input: FormInput): void {
    const edit = fieldEdit(fields, input);
    if (!edit) return;
    this.overlays = { ...this.overlays, [path]: { ...this.overlays[path], [edit.key]: edit.value } };
    const id = `${path}\n${edit.key}`;
    // A newer value for a field still waiting replaces it: one write, counted once.
    if (!this.jobs.has(id)) this.writes.set(path, (this.writes.get(path) ?? 0) + 1);
    this.jobs.set(id, { path, ...edit });
    void this.writeAll();
  }

  /** Writes queued edits one at a time, each on the text as it is when its answer comes back. */
  private async writeAll(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      for (let next = this.jobs.entries().next(); !next.done; next = this.jobs.entries().next()) {
        const [id, job] = next.value;
        this.jobs.delete(id);
        try {
          for (let attempt = 0; attempt < ATTEMPTS && this.posts.isOpen(job.path); attempt++) {
            const base = this.texts.text(job.path);
            const text = await this.api.setField(base, job.key, job.value);
            // Typing went on while the core worked: do it again on the newer text.
            if (await this.texts.replace(job.path, text, base)) break;
          }
        } catch (error) {
          this.notices.notifyError(error);
          this.overlays = without(this.overlays, job.path);
        } finally {
          const left = (this.writes.get(job.path) ?? 1) - 1;
          if (left > 0) this.writes.set(job.path, left);
          else this.writes.delete(job.path);
        }
      }
    } finally {
      this.writing = false;
      this.wake();
    }
  }

  private quiet(): boolean {
    return !this.writing && this.jobs.size === 0 && this.tagsWaiting === 0;
  }

  private wake(): void {
    if (this.quiet()) for (const resolve of this.waiters.splice(0)) resolve();
  }
}

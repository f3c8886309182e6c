//! Publishing from the app: the blog's targets and the form that sets one up
//! (with "test connection"), the publish with its progress and Cancel, the
//! summary, a secret asked for again when the target refused it, a host to
//! trust; and the blog's own git (changed posts, Commit, Pull, Push).

import { i18n } from "./i18n/index.svelte";
import type { Words } from "./i18n/en";
import { asAppError, errorText } from "./errors";
import type * as api from "./api";
import type { Notices } from "./notices.svelte";
import type { OpenPosts } from "./posts.svelte";
import type { Session } from "./session.svelte";
import type { AppError, PublishDone, PublishInfo, PublishProgress, TargetForm } from "./types";

export type PublishApi = Pick<
  typeof api,
  | "publishTargets"
  | "saveTarget"
  | "testTarget"
  | "trustHost"
  | "publishBlog"
  | "cancelPublish"
  | "openSite"
  | "commitSources"
  | "pullSources"
  | "pushSources"
>;

type FieldWord = keyof Words["publish"]["fields"];

/** The kinds of target, with the settings each form asks for (`label`: the word naming each, in `Words`). */
export const KINDS: {
  kind: "git" | "bucket" | "sftp" | "folder";
  fields: { key: string; label: FieldWord; placeholder: string }[];
}[] = [
  {
    kind: "git",
    fields: [
      { key: "remote", label: "remote", placeholder: "https://github.com/me/me.github.io.git" },
      { key: "branch", label: "branch", placeholder: "gh-pages" },
      { key: "user", label: "gitUser", placeholder: "x-access-token" },
      { key: "key", label: "gitKey", placeholder: "~/.ssh/id_ed25519" },
    ],
  },
  {
    kind: "bucket",
    fields: [
      { key: "bucket", label: "bucket", placeholder: "my-blog" },
      { key: "endpoint", label: "endpoint", placeholder: "https://<account>.r2.cloudflarestorage.com" },
      { key: "region", label: "region", placeholder: "us-east-1" },
      { key: "prefix", label: "prefix", placeholder: "" },
      { key: "access_key", label: "accessKey", placeholder: "AKIA…" },
    ],
  },
  {
    kind: "sftp",
    fields: [
      { key: "host", label: "host", placeholder: "example.com" },
      { key: "port", label: "port", placeholder: "22" },
      { key: "user", label: "user", placeholder: "me" },
      { key: "path", label: "folder", placeholder: "/var/www/blog" },
      { key: "key", label: "sftpKey", placeholder: "~/.ssh/id_ed25519" },
    ],
  },
  { kind: "folder", fields: [{ key: "path", label: "folder", placeholder: "/media/usb/blog" }] },
];

export type PublishState =
  | { phase: "choose" }
  | { phase: "form"; form: TargetForm; isNew: boolean }
  | { phase: "running"; target: string; progress: PublishProgress | null }
  | { phase: "done"; done: PublishDone };

export class SitePublish {
  /** The dialog's step; null when it is closed. */
  state = $state.raw<PublishState | null>(null);
  info = $state.raw<PublishInfo | null>(null);
  /** The last thing that went wrong, with what to do. */
  error = $state.raw<AppError | null>(null);
  /** The target whose secret is asked for (again). */
  askSecret = $state.raw<string | null>(null);
  /** The target whose SSH server may be trusted. */
  trustable = $state.raw<TargetForm | null>(null);
  /** What "test connection" found. */
  tested = $state.raw<string | null>(null);
  busy = $state(false);

  constructor(
    private readonly api: PublishApi,
    private readonly session: Pick<Session, "blog">,
    private readonly posts: Pick<OpenPosts, "saveAll">,
    private readonly notices: Notices,
  ) {}

  async open(): Promise<void> {
    if (!this.session.blog || this.state?.phase === "running") return;
    this.error = null;
    this.askSecret = null;
    this.trustable = null;
    await this.refresh();
    this.state = this.info && this.info.targets.length > 0 ? { phase: "choose" } : { phase: "form", form: blankForm("folder"), isNew: true };
  }

  async refresh(): Promise<void> {
    try {
      this.info = await this.api.publishTargets();
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  close(): void {
    if (this.state?.phase === "running") return;
    this.state = null;
  }

  edit(form: TargetForm | null): void {
    this.error = null;
    this.tested = null;
    this.state = { phase: "form", form: form ? { ...form, fields: [...form.fields] } : blankForm("git"), isNew: !form };
  }

  private fail(error: unknown, form: TargetForm | null): void {
    const e = asAppError(error);
    this.error = e;
    if (e.fault === "secret" && form) this.askSecret = form.name;
    if (e.fault === "host_key" && form) this.trustable = form;
  }

  async save(form: TargetForm, secret: string): Promise<void> {
    this.busy = true;
    try {
      this.info = await this.api.saveTarget(form, secret || null);
      this.error = null;
      this.state = { phase: "choose" };
    } catch (error) {
      this.fail(error, form);
    } finally {
      this.busy = false;
    }
  }

  async test(form: TargetForm, secret: string): Promise<void> {
    this.busy = true;
    this.tested = null;
    this.error = null;
    this.trustable = null;
    try {
      this.tested = await this.api.testTarget(form, secret || null);
    } catch (error) {
      this.fail(error, form);
    } finally {
      this.busy = false;
    }
  }

  async trust(form: TargetForm): Promise<void> {
    try {
      const fingerprint = await this.api.trustHost(form);
      this.trustable = null;
      this.error = null;
      this.notices.notify(i18n.t.publish.trusted(form.name, fingerprint));
    } catch (error) {
      this.fail(error, form);
    }
  }

  /** Saves every post, then exports and sends the site to `name`. */
  async publish(name: string, secret: string | null = null): Promise<void> {
    if (this.state?.phase === "running") return;
    await this.posts.saveAll();
    this.error = null;
    this.askSecret = null;
    this.trustable = null;
    this.state = { phase: "running", target: name, progress: null };
    try {
      const done = await this.api.publishBlog(name, secret, (progress) => {
        if (this.state?.phase === "running") this.state = { ...this.state, progress };
      });
      this.state = { phase: "done", done };
      void this.refresh();
    } catch (error) {
      this.state = { phase: "choose" };
      const form = this.info?.targets.find((t) => t.form.name === name)?.form ?? null;
      this.fail(error, form);
    }
  }

  cancel(): void {
    void this.api.cancelPublish();
  }

  async openSite(url: string): Promise<void> {
    try {
      await this.api.openSite(url);
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  private async sources(run: () => Promise<string | PublishInfo>): Promise<void> {
    this.busy = true;
    try {
      const result = await run();
      if (typeof result === "string") {
        this.notices.notify(result);
        await this.refresh();
      } else {
        this.info = result;
        this.notices.notify(i18n.t.publish.committed);
      }
      this.error = null;
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.busy = false;
    }
  }

  commit(message: string): Promise<void> {
    return this.sources(async () => {
      await this.posts.saveAll();
      return this.api.commitSources(message);
    });
  }

  pull(): Promise<void> {
    return this.sources(async () => {
      // The pull's files come back through the watcher; what is unsaved
      // stays unsaved and meets them as any outside change.
      return this.api.pullSources();
    });
  }

  push(): Promise<void> {
    return this.sources(() => this.api.pushSources());
  }

  /** The error as a line, and what to do. */
  get errorLines(): { message: string; hint: string | null } | null {
    return this.error ? { message: errorText(this.error), hint: this.error.hint ?? null } : null;
  }
}

export function blankForm(kind: string): TargetForm {
  return { name: kind === "folder" ? "folder" : kind === "git" ? "pages" : kind, kind, fields: [] };
}

/** A field's value in a form ("" if unset). */
export function fieldOf(form: TargetForm, key: string): string {
  return form.fields.find(([k]) => k === key)?.[1] ?? "";
}

/** The form with one field set. */
export function withField(form: TargetForm, key: string, value: string): TargetForm {
  const fields = form.fields.filter(([k]) => k !== key);
  if (value !== "") fields.push([key, value]);
  return { ...form, fields };
}

/** `Sending 12 of 130 files, 340 KB of 1.2 MB` — or what the step is, in `words`. */
export function progressText(progress: PublishProgress | null, words: Pick<Words, "publish"> = i18n.t): string {
  const w = words.publish;
  if (!progress) return w.starting;
  switch (progress.step) {
    case "exporting":
      return progress.total > 0 ? w.exportingCount(progress.done, progress.total) : w.exporting;
    case "exported":
      return w.exported;
    case "connecting":
      return w.connecting;
    case "sending":
      return w.sending(progress.done, progress.total, bytes(progress.bytes), bytes(progress.totalBytes));
    case "removing":
      return w.removing(progress.done, progress.total);
    case "finishing":
      return progress.bytes > 0 ? w.finishingPushed(bytes(progress.bytes)) : w.finishing;
  }
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.ceil(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

//! For the stores' tests: a fake core (an in-memory blog folder behind the API
//! the stores take, every command a `vi.fn` that tests can watch or hold) and a
//! fake editor that holds the texts. `fakeApp()` joins them with `makeStores`,
//! exactly as `app.ts` joins the real ones.

import { vi } from "vitest";
import type { PostTexts } from "./posts.svelte";
import { makeStores, type AppApi, type Stores } from "./stores";
import type {
  AppError,
  BlogView,
  FieldKey,
  FieldValue,
  Imported,
  Loading,
  PostItem,
  PostText,
  Preview,
  PublishDone,
  PublishInfo,
  PublishProgress,
  Recovered,
  Settings,
  StartInfo,
  TargetForm,
  TargetView,
  VersionCause,
  VersionItem,
  WatchUpdate,
} from "./types";

/** A promise the test settles by hand: a command held in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every promise chain run, and timers due now, without moving the clock. */
export const settle = () => vi.advanceTimersByTimeAsync(0);

/** The editor's and history's settings at their defaults, for tests about the others. */
export const EDITOR_SETTINGS = {
  spellcheck: true,
  vim: false,
  historyVersions: 50,
  historyDays: 90,
  historyEveryMinutes: 5,
  language: "en",
  sidebarWidth: 260,
  previewWidth: 0,
  showSidebar: true,
  showPreview: true,
};

/** The core's settings as a test's `start` sends them. */
export const SETTINGS: Settings = { autosave: true, autosaveDelayMs: 1500, newPostAsBundle: false, ...EDITOR_SETTINGS };

export function postItem(path: string, title: string, tags: string[] = [], tagSlugs = tags.map(fakeSlug)): PostItem {
  const slug = path.replace(/^posts\//, "").replace(/(\/index)?\.md$/, "");
  return {
    path,
    slug,
    title,
    date: "2026-07-17",
    tags,
    tagSlugs,
    draft: false,
    held: null,
    publishAt: null,
    hasErrors: false,
    page: false,
  };
}

/** The fake core's slug rule; the UI never has one. */
function fakeSlug(name: string): string {
  return name.toLowerCase().trim().replace(/\s+/g, "-");
}

/** `title:` and `tags: [a, b]` of a YAML front matter, as much as the tests need. */
function fakeFields(text: string): Preview["fields"] {
  const title = /^title: (.*)$/m.exec(text)?.[1] ?? null;
  const tagLine = /^tags: \[(.*)\]$/m.exec(text)?.[1];
  const tags = tagLine ? tagLine.split(",").map((t) => t.trim()).filter(Boolean) : [];
  return { title, date: null, tags, summary: null, draft: false, error: null };
}

/** `## ` headings, with their lines, as the core's outline lists them. */
function fakeOutline(text: string): Preview["outline"] {
  return text
    .split("\n")
    .map((line, i) => ({ line: i + 1, match: /^(#{2,4}) (.*)$/.exec(line) }))
    .filter(({ match }) => match)
    .map(({ line, match }) => ({ level: match![1].length, id: match![2], title: match![2], line }));
}

const conflict = (path: string, theirs: PostText | null): AppError => ({
  kind: "conflict",
  message: `${path} changed on disk`,
  path,
  ...(theirs ? { theirs } : {}),
});

type Changed = Extract<WatchUpdate, { kind: "changed" }>;

/** A change on disk as the core streams it for `blog` (the whole list of posts sent again). */
export function changed(blog: BlogView, files: Partial<Pick<Changed, "added" | "changed" | "removed" | "renamed">>): Changed {
  const { title, tags, locale, layout, watch } = blog;
  return {
    kind: "changed",
    posts: { all: blog.posts, put: [], removed: [] },
    title,
    tags,
    locale,
    layout,
    watch,
    added: [],
    changed: [],
    removed: [],
    renamed: [],
    ...files,
  };
}

/** The blog folder and its core. */
export class FakeCore {
  /** The files of the blog: path → text and version. */
  readonly disk = new Map<string, { text: string; version: string }>();
  blog: BlogView = { root: "/blog", title: "Blog", posts: [], tags: [], watch: "watching", locale: "ko-KR", layout: null };
  startInfo: StartInfo | null = null;
  private versions = 0;
  private onUpdate: ((update: WatchUpdate) => void) | null = null;

  /** Writes a file as the core would (a new version) and returns it. */
  put(path: string, text: string): PostText {
    const version = `v${++this.versions}`;
    this.disk.set(path, { text, version });
    return { path, text, version };
  }

  /** The file as it is on disk. */
  file(path: string): PostText | null {
    const f = this.disk.get(path);
    return f ? { path, ...f } : null;
  }

  /** Another program writes `path`; the watcher reports it. */
  writeElsewhere(path: string, text: string): PostText {
    const existed = this.disk.has(path);
    const before = this.disk.get(path);
    if (before) this.keep(path, before.text, { kind: "outside" });
    const post = this.put(path, text);
    const change = [{ path, external: true }];
    this.emit(changed(this.blog, { added: existed ? [] : change, changed: existed ? change : [] }));
    return post;
  }

  /** The watcher reports `path` removed (by another program unless `external` is false). */
  removed(path: string, external: boolean): void {
    this.disk.delete(path);
    this.emit(changed(this.blog, { removed: [{ path, external }] }));
  }

  emit(update: WatchUpdate): void {
    this.onUpdate?.(update);
  }

  readonly api = {
    start: vi.fn(async (_onLoading?: (loading: Loading) => void): Promise<StartInfo> => {
      return this.startInfo ?? { blog: this.blog, recent: [this.blog.root], settings: SETTINGS, error: null };
    }),
    openBlog: vi.fn(
      async (path?: string, _onLoading?: (loading: Loading) => void): Promise<BlogView | null> => ({
        ...this.blog,
        root: path ?? "/other",
      }),
    ),
    newBlog: vi.fn(
      async (blog: { title: string; locale: string; author: string; folder: string }, _onLoading?: (loading: Loading) => void) => ({
        ...this.blog,
        root: blog.folder,
        title: blog.title,
        locale: blog.locale,
      }),
    ),
    chooseExport: vi.fn(async (): Promise<string | null> => "/exports/wordpress.xml"),
    importFolder: vi.fn(async (source: string, parent: string | null) => `${parent ?? "/docs"}/${fakeSlug((source.split("/").pop() ?? "").replace(/\.\w+$/, ""))}`),
    importBlog: vi.fn(
      async (fields: { source: string; folder: string }, onStep: (step: string) => void, _onLoading?: (loading: Loading) => void): Promise<Imported> => {
        onStep("velog: 1 posts listed");
        return {
          blog: { ...this.blog, root: fields.folder },
          report: {
            platform: "WordPress",
            folder: fields.folder,
            counts: [{ kind: "posts", count: 2 }, { kind: "drafts", count: 1 }],
            notes: [{ source: 'item 12 "Hello"', what: "`[foo]` has no counterpart here: kept as text" }],
            kept: [],
            foreign: [],
            written: 5,
            unchanged: 0,
          },
        };
      },
    ),
    trySample: vi.fn(async (_onLoading?: (loading: Loading) => void): Promise<BlogView> => ({ ...this.blog, root: "/docs/hanji-sample" })),
    newBlogFolder: vi.fn(async (title: string, parent: string | null) => `${parent ?? "/docs"}/${fakeSlug(title)}`),
    chooseFolder: vi.fn(async (): Promise<string | null> => "/chosen"),
    watch: vi.fn((onUpdate: (update: WatchUpdate) => void): Promise<void> => {
      this.onUpdate = onUpdate;
      return new Promise<void>(() => {});
    }),
    saveSettings: vi.fn(async (_settings: Settings): Promise<void> => {}),
    onCloseRequested: vi.fn(async (_beforeClose: () => Promise<void>) => () => {}),

    readPost: vi.fn(async (path: string): Promise<PostText> => {
      const post = this.file(path);
      if (!post) throw { kind: "not_found", message: `${path} is not there`, path } satisfies AppError;
      return post;
    }),
    savePost: vi.fn(async (path: string, text: string, version: string, _auto?: boolean) => {
      const now = this.file(path);
      if (now && now.version !== version) throw conflict(path, now);
      if (now) this.keep(path, now.text, { kind: "save" });
      const { version: written } = this.put(path, text);
      return { path, version: written };
    }),
    overwritePost: vi.fn(async (path: string, text: string) => {
      const { version } = this.put(path, text);
      return { path, version };
    }),
    forgetUnsaved: vi.fn(async (_path: string): Promise<void> => {}),
    newPost: vi.fn(
      async (title: string): Promise<PostText> => this.put(`posts/${fakeSlug(title)}.md`, `---\ntitle: ${title}\n---\n`),
    ),
    renamePost: vi.fn(async (path: string, slug: string): Promise<PostText> => {
      const post = this.file(path);
      if (!post) throw { kind: "not_found", message: `${path} is not there`, path } satisfies AppError;
      this.disk.delete(path);
      return this.put(`posts/${slug}.md`, post.text);
    }),
    deletePost: vi.fn(async (path: string): Promise<string> => {
      this.disk.delete(path);
      return `Moved ${path} to the trash.`;
    }),
    insertImage: vi.fn(async (_post: string): Promise<string | null> => null),
    saveImage: vi.fn(async (_post: string, name: string, _bytes: Uint8Array): Promise<string> => `![](${name})`),
    recovered: vi.fn(async (): Promise<Recovered[]> => []),
    discardRecovered: vi.fn(async (_path: string): Promise<void> => {}),

    preview: vi.fn(async (path: string, text: string): Promise<Preview> => ({
      url: `preview://localhost/${path}`,
      html: `<html lang="${/^lang: (.*)$/m.exec(text)?.[1] ?? "ko"}"><head></head><body>${text}</body></html>`,
      outline: fakeOutline(text),
      fields: fakeFields(text),
      words: text.split(/\s+/).filter(Boolean).length,
      readingMinutes: 1,
      problems: [],
    })),
    previewUrl: vi.fn((sitePath: string) => `preview://localhost/${sitePath}`),

    setField: vi.fn(async (text: string, key: FieldKey, value: FieldValue): Promise<string> => {
      if (key !== "tags" || !Array.isArray(value)) throw new Error(`the fake sets tags only, not ${key}`);
      const line = `tags: [${value.join(", ")}]`;
      return /^tags: .*$/m.test(text) ? text.replace(/^tags: .*$/m, line) : text.replace(/^---\n/, `---\n${line}\n`);
    }),
    tagSlugs: vi.fn(async (names: string[]): Promise<string[]> => names.map(fakeSlug)),

    searchText: vi.fn(async (_query: string): Promise<string[]> => []),
    planRetag: vi.fn(async (from: string, to: string) => ({
      from,
      to,
      toSlug: fakeSlug(to),
      merge: false,
      files: this.blog.posts.filter((p) => p.tags.includes(from)).map((p) => p.path),
    })),
    retag: vi.fn(async (_from: string, _to: string) => ({ batch: 7, files: ["posts/a.md"] })),
    undoRetag: vi.fn(async (_batch: number) => ["posts/a.md"]),
    exportBlog: vi.fn(async () => null),
    publishTargets: vi.fn(async (): Promise<PublishInfo> => ({ targets: this.targets, keychain: "test keychain", sources: null })),
    saveTarget: vi.fn(async (form: TargetForm, _secret: string | null): Promise<PublishInfo> => {
      this.targets = [...this.targets.filter((t) => t.form.name !== form.name), { form, secret: null, hasSecret: false }];
      return { targets: this.targets, keychain: "test keychain", sources: null };
    }),
    testTarget: vi.fn(async (_form: TargetForm, _secret: string | null) => "connected: nothing published there by Hanji yet"),
    trustHost: vi.fn(async (_form: TargetForm) => "SHA256:abc"),
    publishBlog: vi.fn(
      async (name: string, _secret: string | null, onProgress: (p: PublishProgress) => void): Promise<PublishDone> => {
        onProgress({ step: "sending", path: "index.html", done: 1, total: 2, bytes: 10, totalBytes: 20 });
        return {
          target: name,
          sent: 2,
          sentBytes: 20,
          removed: 0,
          unchanged: 0,
          url: null,
          message: `Published to ${name}`,
          problems: [],
          leftOut: [],
        };
      },
    ),
    cancelPublish: vi.fn(async (): Promise<void> => {}),
    openSite: vi.fn(async (_url: string): Promise<void> => {}),
    commitSources: vi.fn(async (_message: string): Promise<PublishInfo> => ({ targets: this.targets, keychain: "", sources: null })),
    pullSources: vi.fn(async () => "already up to date"),
    pushSources: vi.fn(async () => "pushed"),
    showFolder: vi.fn(async (_path: string): Promise<void> => {}),
    versions: vi.fn(async (path: string): Promise<VersionItem[]> =>
      (this.kept.get(path) ?? [])
        .map((kept, i) => ({ id: String(i), savedAt: 1_000 * (i + 1), bytes: kept.text.length, added: 1, removed: 0, cause: kept.cause }))
        .reverse(),
    ),
    readVersion: vi.fn(async (path: string, id: string): Promise<string> => {
      const text = this.kept.get(path)?.[Number(id)]?.text;
      if (text === undefined) throw { kind: "not_found", message: `no version ${id}`, path } satisfies AppError;
      return text;
    }),
  } satisfies AppApi;

  /** The versions the fake's saves (and other writes) kept, oldest first, by path. */
  readonly kept = new Map<string, { text: string; cause: VersionCause }[]>();

  private keep(path: string, text: string, cause: VersionCause): void {
    this.kept.set(path, [...(this.kept.get(path) ?? []), { text, cause }]);
  }
  /** The blog's publish targets. */
  targets: TargetView[] = [];
}

/** The editor, as far as the stores use it: texts by path; `type` is the author typing. */
export class FakeEditor implements PostTexts {
  readonly texts = new Map<string, string>();
  shown: string | null = null;
  top = 1;
  /** The editor's `changed` hook (joined to `posts.edited`). */
  changed: (path: string, text: string) => void = () => {};

  /** The author types: the post's whole text is now `text`. */
  type(path: string, text: string): void {
    this.texts.set(path, text);
    this.changed(path, text);
  }

  open(path: string, text: string): void {
    if (!this.texts.has(path)) this.texts.set(path, text);
  }
  async show(path: string | null): Promise<void> {
    this.shown = path;
  }
  text(path: string): string {
    return this.texts.get(path) ?? "";
  }
  async replace(path: string, next: string, base?: string): Promise<boolean> {
    const now = this.texts.get(path);
    if (now === undefined) return false;
    if (base !== undefined && now !== base) return false;
    if (now !== next) this.type(path, next);
    return true;
  }
  async insert(path: string, text: string): Promise<void> {
    if (this.texts.has(path)) this.type(path, this.text(path) + text);
  }
  rename(from: string, to: string): void {
    const text = this.texts.get(from);
    if (text === undefined || from === to) return;
    this.texts.delete(from);
    this.texts.set(to, text);
    if (this.shown === from) this.shown = to;
  }
  async close(path: string): Promise<void> {
    if (this.shown === path) this.shown = null;
    this.texts.delete(path);
  }
  async closeAll(): Promise<void> {
    this.shown = null;
    this.texts.clear();
  }
  focus(): void {}
  /** The lines the stores sent the cursor to, and scrolled to the top. */
  readonly wentTo: number[] = [];
  readonly scrolledTo: number[] = [];
  goToLine(line: number): void {
    this.wentTo.push(line);
  }
  scrollToLine(line: number): void {
    this.scrolledTo.push(line);
  }
  /** The languages the stores asked spelling to be checked in. */
  readonly spelledIn: string[] = [];
  spellIn(lang: string): void {
    if (this.spelledIn.at(-1) !== lang) this.spelledIn.push(lang);
  }
}

/** The stores on a fake core and editor, as the app joins them. */
export function fakeApp(core = new FakeCore()): Stores & { core: FakeCore; api: FakeCore["api"]; editor: FakeEditor } {
  const editor = new FakeEditor();
  const stores = makeStores(core.api, editor);
  editor.changed = (path, text) => stores.posts.edited(path, text);
  return { ...stores, core, api: core.api, editor };
}

//! The preview pane: each open post rendered from its unsaved text (one render
//! in flight, always ending on the newest text), the page the pane shows (the
//! post, or a page of the site), and the source line it follows.

import type * as api from "./api";
import { asAppError, errorText } from "./errors";
import { Latest } from "./latest";
import { without, type OpenPosts, type PostTexts } from "./posts.svelte";
import { withVersion } from "./preview-url";
import type { Session } from "./session.svelte";
import type { Preview } from "./types";

export type PreviewApi = Pick<typeof api, "preview" | "previewUrl">;

/** A render came back for `text` of `path` (the post is still open). */
export type RenderedListener = (path: string, text: string, preview: Preview) => void;

interface Render {
  path: string;
  text: string;
}

export class PreviewPane {
  /** The latest render of each open post. */
  byPath = $state.raw<Record<string, Preview>>({});
  /** Why the shown post's last render failed. */
  error = $state.raw<string | null>(null);
  /** Counts renders of the shown post, so the frame loads each one. */
  version = $state(0);
  /** The source line at the top of the editor. */
  topLine = $state(1);
  mode = $state<"post" | "site">("post");
  sitePage = $state("index.html");
  siteVersion = $state(0);

  /** The shown post's render. */
  current = $derived.by(() => (this.posts.current === null ? null : (this.byPath[this.posts.current] ?? null)));
  /** The address the pane loads. */
  page = $derived.by((): string | null => {
    if (this.mode === "site") {
      return this.session.blog ? withVersion(this.api.previewUrl(this.sitePage), this.siteVersion) : null;
    }
    return this.current ? withVersion(this.current.url, this.version) : null;
  });

  private readonly rendered: RenderedListener[] = [];
  private readonly runner = new Latest<Render, Preview>(
    ({ path, text }) => this.api.preview(path, text),
    (input, result) => this.done(input, result),
    (input, error) => {
      if (input.path === this.posts.current) this.error = errorText(asAppError(error));
    },
  );

  constructor(
    private readonly api: PreviewApi,
    private readonly posts: Pick<OpenPosts, "current" | "isOpen" | "listen">,
    private readonly texts: Pick<PostTexts, "text" | "top">,
    private readonly session: Pick<Session, "blog">,
  ) {
    posts.listen({
      shown: (path) => {
        this.error = null;
        this.topLine = this.texts.top;
        this.render(path);
      },
      edited: (path, text) => {
        if (path === this.posts.current) this.runner.request({ path, text });
      },
      moved: (from, to) => {
        const preview = this.byPath[from];
        if (preview) this.byPath = { ...without(this.byPath, from), [to]: preview };
        // Its address changed with its name.
        if (to === this.posts.current) this.render(to);
      },
      closed: (path) => {
        this.byPath = without(this.byPath, path);
      },
      closedAll: () => {
        this.runner.cancel();
        this.byPath = {};
        this.error = null;
      },
    });
  }

  onRendered(listener: RenderedListener): void {
    this.rendered.push(listener);
  }

  /** The editor scrolled to `line`. */
  scrolled(line: number): void {
    this.topLine = line;
  }

  showSite(page: string): void {
    this.mode = "site";
    this.sitePage = page;
    this.siteVersion++;
  }

  showPost(): void {
    this.mode = "post";
  }

  private render(path: string): void {
    this.runner.request({ path, text: this.texts.text(path) });
  }

  private done(input: Render, result: Preview): void {
    if (!this.posts.isOpen(input.path)) return;
    this.byPath = { ...this.byPath, [input.path]: result };
    for (const listener of this.rendered) listener(input.path, input.text, result);
    if (input.path === this.posts.current) {
      this.error = null;
      this.version++;
    }
  }
}

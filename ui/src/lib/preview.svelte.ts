//! The preview pane: each open post rendered from its unsaved text (one render
//! in flight, always ending on the newest text), the page the pane shows (the
//! post, or a page of the site), the source line it follows, and the way back:
//! the preview scrolled or clicked moves the editor.

import type * as api from "./api";
import { asAppError, errorText } from "./errors";
import { Latest } from "./latest";
import { without, type OpenPosts, type PostTexts } from "./posts.svelte";
import { withVersion } from "./preview-url";
import { mark } from "./trace";
import type { Session } from "./session.svelte";
import type { Preview } from "./types";

/** How long the editor's scrolling after a scroll of the preview is taken as its answer. */
const ECHO_MS = 600;

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
  /** The line the preview follows: the editor's top, except the editor's answer to the preview's own scroll. */
  followLine = $state(1);
  /** The line of the editor's cursor (the outline marks its section). */
  cursorLine = $state(1);
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
    ({ path, text }) => {
      mark("invoke");
      return this.api.preview(path, text);
    },
    (input, result) => this.done(input, result),
    (input, error) => {
      if (input.path === this.posts.current) this.error = errorText(asAppError(error));
    },
  );

  constructor(
    private readonly api: PreviewApi,
    private readonly posts: Pick<OpenPosts, "current" | "isOpen" | "listen">,
    private readonly texts: Pick<PostTexts, "text" | "top" | "goToLine" | "scrollToLine" | "spellIn">,
    private readonly session: Pick<Session, "blog">,
  ) {
    posts.listen({
      shown: (path) => {
        this.error = null;
        this.topLine = this.texts.top;
        this.followLine = this.texts.top;
        this.render(path);
      },
      edited: (path, text) => {
        mark("edited");
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

  /** Until then, the editor's scrolling answers the preview's (and is not sent back to it). */
  private echoUntil = 0;

  /** The editor scrolled to `line`. */
  scrolled(line: number): void {
    this.topLine = line;
    if (Date.now() < this.echoUntil) return;
    this.followLine = line;
  }

  /** The editor's cursor is on `line`. */
  cursorMoved(line: number): void {
    this.cursorLine = line;
  }

  /** The author scrolled the preview: `line` is at its top, and goes to the editor's top. */
  previewScrolled(line: number): void {
    this.echoUntil = Date.now() + ECHO_MS;
    this.texts.scrollToLine(line);
  }

  /** The author clicked a block of the preview: the cursor goes to its source line. */
  previewClicked(line: number): void {
    this.texts.goToLine(line);
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
    mark("answered");
    if (!this.posts.isOpen(input.path)) return;
    this.byPath = { ...this.byPath, [input.path]: result };
    for (const listener of this.rendered) listener(input.path, input.text, result);
    if (input.path === this.posts.current) {
      this.error = null;
      this.version++;
      this.spellIn(pageLanguage(result.html));
    }
  }

  /** The language spelling is checked in: the shown post's page's. */
  private spellIn(lang: string | null): void {
    if (lang !== null) this.texts.spellIn(lang);
  }
}

/** The language a page says it is in (`<html lang="ko">`), as the theme wrote it. */
export function pageLanguage(html: string): string | null {
  const tag = /<html\b[^>]*>/i.exec(html)?.[0];
  const lang = tag ? /\slang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag) : null;
  const value = lang ? (lang[1] ?? lang[2] ?? lang[3]).trim() : "";
  return value === "" ? null : value;
}

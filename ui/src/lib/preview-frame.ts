//! The post's page in a frame that runs no script at all, loaded once and then
//! patched: each new render is parsed here and only the nodes that changed are
//! changed in the frame (morphdom), so the page never reloads, never flickers
//! and keeps its scroll position. The frame is sandboxed without
//! `allow-scripts` (nothing in it runs: no script, no event handler, no
//! `javascript:` link, no refresh), and its page carries its own Content
//! Security Policy as well; `allow-same-origin` only lets this side reach in.
//!
//! Nothing of the app's runs inside the frame either (WebKit does not call a
//! listener in a document where script is off), so this side watches from
//! outside, once per animation frame while the pointer or focus is in the
//! preview: the frame's scroll position (preview → editor scroll sync) and
//! which element is pressed (`:active`: a click puts the editor's cursor on
//! that block's source line).

import morphdom from "morphdom";
import { type Block, lineAtTop, mapOf, topOfLine } from "./line-map";
import { mark } from "./trace";

/** The frame's own policy: what the `preview:` protocol's pages carry, as a `<meta>`. */
export const FRAME_CSP =
  "default-src 'none'; script-src 'none'; style-src preview: http://preview.localhost 'unsafe-inline'; " +
  "img-src preview: http://preview.localhost data: https: http:; font-src preview: http://preview.localhost data:; " +
  "media-src preview: http://preview.localhost https:; object-src 'none'; frame-src 'none'; form-action 'none'";

/** A press shorter than this is a click; a longer one selects text. */
const CLICK_MS = 400;
/** After the author scrolls the preview, the editor does not move it for this long. */
const LEAD_MS = 400;

export interface FrameHooks {
  /** The author scrolled the preview: `line` is at its top. */
  scrolled(line: number): void;
  /** The author clicked a block made from source `line`. */
  clicked(line: number): void;
}

/** `html` with the frame's policy and `<base>` (so its relative links lead where the site's do) first in its head. */
export function framePage(html: string, base: string): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}"><base href="${base.replace(/"/g, "%22")}">`;
  const at = /<head(\s[^>]*)?>/i.exec(html);
  if (!at) return head + html;
  const end = at.index + at[0].length;
  return html.slice(0, end) + head + html.slice(end);
}

export class PreviewFrame {
  /** The page last given, and the one the frame shows. */
  private wanted: string | null = null;
  private shownPage: string | null = null;
  private loading = false;
  private line: number | null = null;
  private map: Block[] | null = null;
  private watching = 0;
  private pointerIn = false;
  /** The scroll position this side set last; anything else is the author's. */
  private setScroll = -1;
  private seenScroll = 0;
  private ledAt = -Infinity;
  private press: { element: Element; at: number } | null = null;
  private readonly parser = new DOMParser();

  constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly hooks: FrameHooks,
  ) {
    frame.addEventListener("load", this.onLoad);
    frame.addEventListener("mouseenter", this.onEnter);
    frame.addEventListener("mouseleave", this.onLeave);
    window.addEventListener("blur", this.onWindowBlur);
  }

  destroy(): void {
    this.frame.removeEventListener("load", this.onLoad);
    this.frame.removeEventListener("mouseenter", this.onEnter);
    this.frame.removeEventListener("mouseleave", this.onLeave);
    window.removeEventListener("blur", this.onWindowBlur);
    cancelAnimationFrame(this.watching);
  }

  /** Shows `html` (a whole page from the core) with relative links from `base`. */
  show(html: string, base: string): void {
    this.wanted = framePage(html, base);
    if (!this.loading) this.apply();
  }

  /** The editor's top line: the preview follows it, unless the author is scrolling the preview. */
  follow(line: number | null): void {
    this.line = line;
    if (line !== null && performance.now() - this.ledAt > LEAD_MS) this.scrollTo(line);
  }

  /** The document in the frame, if it is the one this side put there. */
  private get doc(): Document | null {
    const doc = this.frame.contentDocument;
    return doc && doc.URL === "about:srcdoc" && doc.readyState !== "loading" ? doc : null;
  }

  private apply(): void {
    const page = this.wanted;
    if (page === null || page === this.shownPage) return;
    const doc = this.doc;
    if (!doc || this.shownPage === null) {
      // The first page, or the frame went elsewhere (a link): load it whole.
      this.loading = true;
      this.shownPage = page;
      this.frame.srcdoc = page;
      return;
    }
    mark("show");
    const next = this.parser.parseFromString(page, "text/html");
    mark("parsed");
    // A block the edit did not touch is equal as a whole: skip it without
    // walking it (the browser compares natively), so a keystroke costs the
    // changed blocks, not the page.
    morphdom(doc.documentElement, next.documentElement, { onBeforeElUpdated: (from, to) => !from.isEqualNode(to) });
    mark("patched");
    this.shownPage = page;
    this.map = null;
    if (this.line !== null && performance.now() - this.ledAt > LEAD_MS) this.scrollTo(this.line);
  }

  private readonly onLoad = () => {
    this.loading = false;
    this.map = null;
    if (!this.doc) {
      // A link took the frame to another page: the next render loads the post again.
      this.shownPage = "";
      return;
    }
    if (this.line !== null) this.scrollTo(this.line);
    this.apply();
  };

  /** Where each block of the page is now (worked out again after each change). */
  private blocks(doc: Document): Block[] {
    if (this.map) return this.map;
    const scrollY = doc.defaultView?.scrollY ?? 0;
    const blocks: Block[] = [];
    for (const element of doc.querySelectorAll("[data-line]")) {
      const line = Number(element.getAttribute("data-line"));
      if (Number.isFinite(line)) blocks.push({ line, top: element.getBoundingClientRect().top + scrollY });
    }
    this.map = mapOf(blocks);
    return this.map;
  }

  private scrollTo(line: number): void {
    const doc = this.doc;
    const view = doc?.defaultView;
    if (!doc || !view) return;
    const top = Math.max(0, Math.round(topOfLine(this.blocks(doc), line)));
    view.scrollTo({ top, behavior: "instant" });
    this.setScroll = view.scrollY;
    this.seenScroll = view.scrollY;
  }

  private readonly onEnter = () => {
    this.pointerIn = true;
    this.watch();
  };

  private readonly onLeave = () => {
    this.pointerIn = false;
  };

  /** The window lost focus to the frame: the author pressed in it. */
  private readonly onWindowBlur = () => {
    if (document.activeElement !== this.frame) return;
    this.pressed();
    this.watch();
  };

  private watch(): void {
    if (this.watching) return;
    const tick = () => {
      this.watching = 0;
      const doc = this.doc;
      if (!doc) return;
      this.lookAtScroll(doc);
      this.lookAtPress(doc);
      if (this.pointerIn || document.activeElement === this.frame || this.press) {
        this.watching = requestAnimationFrame(tick);
      }
    };
    this.watching = requestAnimationFrame(tick);
  }

  private lookAtScroll(doc: Document): void {
    const y = doc.defaultView?.scrollY ?? 0;
    if (Math.abs(y - this.seenScroll) < 1) return;
    this.seenScroll = y;
    if (Math.abs(y - this.setScroll) < 1) return;
    this.setScroll = -1;
    this.ledAt = performance.now();
    // A pixel down: the block whose top is at the frame's top is the one read.
    this.hooks.scrolled(lineAtTop(this.blocks(doc), y + 1));
  }

  private pressed(): void {
    const doc = this.doc;
    const active = doc ? deepest(doc, ":active") ?? deepest(doc, ":hover") : null;
    if (active && !this.press) this.press = { element: active, at: performance.now() };
  }

  private lookAtPress(doc: Document): void {
    const active = deepest(doc, ":active");
    if (active) {
      if (!this.press) this.press = { element: active, at: performance.now() };
      return;
    }
    const press = this.press;
    if (!press) return;
    this.press = null;
    if (performance.now() - press.at > CLICK_MS) return;
    // Links, buttons and summaries do what they do; they are not a place in the text.
    if (press.element.closest("a[href], button, summary, label, input, select, textarea")) return;
    const block = press.element.closest("[data-line]");
    const line = block ? Number(block.getAttribute("data-line")) : NaN;
    if (Number.isFinite(line) && line > 0) this.hooks.clicked(line);
  }
}

/** The innermost element matching `state` (`:active`, `:hover`), if any. */
function deepest(doc: Document, state: string): Element | null {
  const all = doc.querySelectorAll(state);
  return all.length > 0 ? all[all.length - 1] : null;
}

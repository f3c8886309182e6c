//! The one editor view and one `EditorState` per open post: switching posts
//! swaps the state (`view.setState`), so each post keeps its own undo history,
//! selection and scroll position, and the view is never created again.
//!
//! Korean (and any IME) composition must not be disturbed: while the view is
//! composing, nothing here replaces its document or swaps its state; such work
//! waits until the composition has ended.

import { openSearchPanel } from "@codemirror/search";
import { EditorSelection, EditorState, type StateEffect, type TransactionSpec } from "@codemirror/state";
import { EditorView, type ViewUpdate } from "@codemirror/view";
import { minimalChange } from "../diff";
import { fromEditor, type LineEnding, lineEndingOf, toEditor } from "../line-endings";
import { mark } from "../trace";
import { foldFrontMatter, frontMatterEnd, isFolded } from "./front-matter-fold";
import { type LineProblem, setProblems } from "./problems";
import { type EditorOptions, postExtensions, reconfigure } from "./setup";
import { Speller, type SpellingApi } from "./spelling";

export interface BufferHooks {
  /** A post's text changed, from typing or from `replace`/`insert`. */
  changed(path: string, text: string): void;
  /** The source line at the top of the editor's viewport changed. */
  scrolled(line: number): void;
  /** The cursor moved to another line of the shown post. */
  cursor(line: number): void;
  /** An image was pasted or dropped into the post. */
  image(path: string, file: File): void;
}

export class Buffers {
  private view: EditorView | null = null;
  private readonly states = new Map<string, EditorState>();
  /** Each post's line ending, put back on the text that leaves the editor. */
  private readonly endings = new Map<string, LineEnding>();
  private readonly scrolls = new Map<string, StateEffect<unknown>>();
  private shown: string | null = null;
  private readonly waiting: (() => void)[] = [];
  private readonly extensions;
  private readonly blank: EditorState;
  private options: EditorOptions = { vim: false, spellcheck: true };
  private topLine = 1;
  private cursorLine = 1;
  private scrollFrame = 0;

  private readonly speller: Speller;

  constructor(
    private readonly hooks: BufferHooks,
    spelling: SpellingApi,
  ) {
    this.speller = new Speller(spelling);
    this.extensions = postExtensions({
      update: (u) => this.onUpdate(u),
      image: (file) => {
        if (this.shown !== null) this.hooks.image(this.shown, file);
      },
      speller: this.speller,
    });
    this.blank = EditorState.create({ doc: "", extensions: [EditorState.readOnly.of(true), EditorView.editable.of(false)] });
  }

  /** Puts the editor into `parent`; returns what takes it out again. */
  mount(parent: HTMLElement): () => void {
    this.view?.destroy();
    const state = (this.shown !== null && this.states.get(this.shown)) || this.blank;
    const view = new EditorView({ parent, state });
    this.view = view;
    const onScroll = () => this.scrolledSoon();
    const onCompositionEnd = () => this.drainSoon();
    view.scrollDOM.addEventListener("scroll", onScroll, { passive: true });
    view.contentDOM.addEventListener("compositionend", onCompositionEnd);
    return () => {
      view.scrollDOM.removeEventListener("scroll", onScroll);
      view.contentDOM.removeEventListener("compositionend", onCompositionEnd);
      cancelAnimationFrame(this.scrollFrame);
      if (this.shown !== null) this.states.set(this.shown, view.state);
      view.destroy();
      if (this.view === view) this.view = null;
    };
  }

  has(path: string): boolean {
    return this.states.has(path);
  }

  /** Makes a state for a newly opened post. */
  open(path: string, text: string): void {
    if (this.states.has(path)) return;
    this.endings.set(path, lineEndingOf(text));
    const made = EditorState.create({ doc: toEditor(text), extensions: this.extensions });
    // The cursor starts where the post's text does, below its (folded) front matter.
    const end = frontMatterEnd(made);
    const start = end > 0 && end < made.doc.lines ? made.doc.line(end + 1).from : 0;
    this.states.set(path, made.update({ effects: reconfigure(this.options, this.speller), selection: { anchor: start } }).state);
  }

  /** Shows a post (or nothing) in the view, once no composition is going on. */
  show(path: string | null): Promise<void> {
    return this.whenIdle(() => {
      const view = this.view;
      if (path === this.shown) return;
      if (view && this.shown !== null && this.states.has(this.shown)) {
        this.states.set(this.shown, view.state);
        this.scrolls.set(this.shown, view.scrollSnapshot());
      }
      this.shown = path;
      if (!view) return;
      const state = path === null ? undefined : this.states.get(path);
      view.setState(state ?? this.blank);
      const scroll = path === null ? undefined : this.scrolls.get(path);
      if (scroll) view.dispatch({ effects: scroll });
      this.scrolledSoon();
      this.cursorLine = view.state.doc.lineAt(view.state.selection.main.head).number;
      this.hooks.cursor(this.cursorLine);
    });
  }

  get current(): string | null {
    return this.shown;
  }

  /** The post's text as the editor has it now. */
  text(path: string): string {
    const state = this.stateOf(path);
    return state ? this.textOf(path, state) : "";
  }

  /**
   * Makes the post's text `next` by one minimal change, so history and cursor
   * survive. With `base`, only if the text is still `base` (else false: the
   * caller worked on an old text and should try again).
   */
  replace(path: string, next: string, base?: string): Promise<boolean> {
    return this.whenIdle(() => {
      const state = this.stateOf(path);
      if (!state) return false;
      const now = state.doc.toString();
      if (base !== undefined && now !== toEditor(base)) return false;
      const change = minimalChange(now, toEditor(next));
      if (change) this.apply(path, { changes: change, userEvent: "input.replace" });
      return true;
    });
  }

  /** Inserts `text` at the post's cursor (replacing a selection) and puts the cursor after it. */
  insert(path: string, text: string): Promise<void> {
    return this.whenIdle(() => {
      const state = this.stateOf(path);
      if (!state) return;
      const spec = state.changeByRange((range) => ({
        changes: { from: range.from, to: range.to, insert: text },
        range: EditorSelection.cursor(range.from + text.length),
      }));
      this.apply(path, { ...spec, scrollIntoView: true, userEvent: "input.paste" });
    });
  }

  /** The post now lives at `to` (renamed here or on disk). */
  rename(from: string, to: string): void {
    const state = this.states.get(from);
    if (!state || from === to) return;
    this.states.delete(from);
    this.states.set(to, state);
    this.endings.set(to, this.endings.get(from) ?? "\n");
    this.endings.delete(from);
    const scroll = this.scrolls.get(from);
    this.scrolls.delete(from);
    if (scroll) this.scrolls.set(to, scroll);
    if (this.shown === from) this.shown = to;
  }

  /** Forgets a post (deleted, or another blog opened). Never the shown one while composing. */
  async close(path: string): Promise<void> {
    if (this.shown === path) await this.show(null);
    this.states.delete(path);
    this.scrolls.delete(path);
    this.endings.delete(path);
  }

  async closeAll(): Promise<void> {
    await this.show(null);
    this.states.clear();
    this.scrolls.clear();
    this.endings.clear();
  }

  /** Scrolls the shown post so that `line` is at the top, leaving the cursor where it is. */
  scrollToLine(line: number): void {
    const view = this.view;
    if (!view || this.shown === null) return;
    const doc = view.state.doc;
    const pos = doc.line(Math.min(Math.max(1, line), doc.lines)).from;
    view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: "start", yMargin: 0 }) });
  }

  /** Vim keys and spell checking, in every open post. */
  configure(options: EditorOptions): void {
    const effects = reconfigure(options, this.speller);
    for (const [path, state] of this.states) {
      if (path !== this.shown || !this.view) this.states.set(path, state.update({ effects }).state);
    }
    if (this.view && this.shown !== null) this.view.dispatch({ effects });
    this.options = options;
  }

  /** The shown post's page is in `lang`: its spelling is checked in it. */
  spellIn(lang: string): void {
    this.speller.setLanguage(lang);
  }

  /** Marks `path`'s lines that have problems (the core's, for this post). */
  showProblems(path: string, problems: LineProblem[]): void {
    if (this.states.has(path)) this.apply(path, { effects: setProblems.of(problems) });
  }

  /** Whether the shown post's front matter is shown as text (not folded). */
  frontMatterShown(): boolean {
    const state = this.shown === null ? undefined : this.stateOf(this.shown);
    return state ? !isFolded(state) : false;
  }

  /** Shows the shown post's front matter as text, or folds it. */
  showFrontMatter(show: boolean): void {
    if (this.shown !== null) this.apply(this.shown, { effects: foldFrontMatter.of(!show) });
  }

  /** Puts the cursor at the start of `line` of the shown post, scrolled into view (unfolding the front matter for a line of it). */
  goToLine(line: number): void {
    const view = this.view;
    if (!view || this.shown === null) return;
    if (line <= frontMatterEnd(view.state) && isFolded(view.state)) view.dispatch({ effects: foldFrontMatter.of(false) });
    const doc = view.state.doc;
    const pos = doc.line(Math.min(Math.max(1, line), doc.lines)).from;
    view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
    view.focus();
  }

  focus(): void {
    this.view?.focus();
  }

  openSearch(): void {
    if (this.view && this.shown !== null) {
      this.view.focus();
      openSearchPanel(this.view);
    }
  }

  /** Whether focus is in the editor (its own keys, like Ctrl+F, then work by themselves). */
  hasFocus(): boolean {
    return this.view?.hasFocus ?? false;
  }

  /** The source line at the top of the viewport. */
  get top(): number {
    return this.topLine;
  }

  /** The post's text with its own line endings. */
  private textOf(path: string, state: EditorState): string {
    return fromEditor(state.doc.toString(), this.endings.get(path) ?? "\n");
  }

  private stateOf(path: string): EditorState | undefined {
    if (path === this.shown && this.view) return this.view.state;
    return this.states.get(path);
  }

  /** A transaction on a post, shown or not; the shown one goes through the view (and its update listener). */
  private apply(path: string, spec: TransactionSpec): void {
    if (path === this.shown && this.view) {
      this.view.dispatch(spec);
      return;
    }
    const state = this.states.get(path);
    if (!state) return;
    const tr = state.update(spec);
    this.states.set(path, tr.state);
    if (tr.docChanged) this.hooks.changed(path, this.textOf(path, tr.state));
  }

  private onUpdate(update: ViewUpdate): void {
    if (update.docChanged) mark("typed");
    if (update.docChanged && this.shown !== null) this.hooks.changed(this.shown, this.textOf(this.shown, update.state));
    if (update.docChanged || update.geometryChanged) this.scrolledSoon();
    if ((update.selectionSet || update.docChanged) && this.shown !== null) {
      const line = update.state.doc.lineAt(update.state.selection.main.head).number;
      if (line !== this.cursorLine) {
        this.cursorLine = line;
        this.hooks.cursor(line);
      }
    }
    if (this.waiting.length > 0 && !update.view.composing) this.drainSoon();
  }

  private whenIdle<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      };
      if (!this.view?.composing && this.waiting.length === 0) run();
      else {
        this.waiting.push(run);
        this.drainSoon();
      }
    });
  }

  /**
   * Runs waiting work once the composition is over. CodeMirror reads the
   * composed text from the DOM just after `compositionend` (and drops unread
   * DOM changes when a transaction comes first), so wait a little past it.
   */
  private drainSoon(): void {
    setTimeout(() => {
      if (this.view?.composing) return; // The next update or compositionend comes back here.
      while (this.waiting.length > 0 && !this.view?.composing) this.waiting.shift()!();
    }, 60);
  }

  private scrolledSoon(): void {
    cancelAnimationFrame(this.scrollFrame);
    this.scrollFrame = requestAnimationFrame(() => {
      const view = this.view;
      if (!view || this.shown === null) return;
      const into = view.scrollDOM.getBoundingClientRect().top - view.documentTop;
      const block = view.lineBlockAtHeight(Math.max(0, into));
      const line = view.state.doc.lineAt(block.from).number;
      if (line !== this.topLine) {
        this.topLine = line;
        this.hooks.scrolled(line);
      }
    });
  }
}

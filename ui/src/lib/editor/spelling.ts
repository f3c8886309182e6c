//! Spell checking of the whole post: the core asks the system's Hunspell about
//! every word of the post's prose (code, math, addresses and the front matter
//! left out) in the language of its page, and each unknown word gets a wavy
//! underline; a right click on one offers what to write instead. The
//! webview's own checker stays off: it only ever checked words as they were
//! typed, never the text a post opened with.

import { type EditorState, type Extension, StateEffect, StateField, type Text } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  showTooltip,
  type Tooltip,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import type { Misspelled } from "../types";

/** How long after the last keystroke the post is checked again. */
const AFTER_TYPING_MS = 400;

/** What the checker asks of the core. */
export interface SpellingApi {
  misspelled(text: string, lang: string): Promise<Misspelled[]>;
  spellingSuggestions(word: string, lang: string): Promise<string[]>;
}

/** The language words are checked in (the shown post's page's), and the core that checks them. */
export class Speller {
  private lang: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly api: SpellingApi) {}

  /** The shown post's page is in `lang`: its words are checked again in it. */
  setLanguage(lang: string): void {
    if (lang === this.lang) return;
    this.lang = lang;
    for (const listener of this.listeners) listener();
  }

  /** The unknown words of `text`, or null before the page's language is known. */
  async check(text: string): Promise<Misspelled[] | null> {
    return this.lang === null ? null : this.api.misspelled(text, this.lang);
  }

  async suggest(word: string): Promise<string[]> {
    return this.lang === null ? [] : this.api.spellingSuggestions(word, this.lang);
  }

  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const misspelledMark = Decoration.mark({ class: "cm-misspelled" });

/** The core's answer for the document `doc`. */
export const setMisspelled = StateEffect.define<{ doc: Text; words: Misspelled[] }>();

export const misspelledField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = tr.docChanged ? marks.map(tr.changes) : marks;
    for (const effect of tr.effects) {
      // An answer for a text that changed since is dropped: another is coming.
      if (effect.is(setMisspelled) && effect.value.doc === tr.state.doc) next = marksOf(effect.value.words, tr.state.doc);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

function marksOf(words: Misspelled[], doc: Text): DecorationSet {
  const ranges = words
    .filter((word) => word.from < word.to && word.to <= doc.length)
    .map((word) => misspelledMark.range(word.from, word.to));
  return Decoration.set(ranges, true);
}

/** The unknown words the editor shows, as [from, to, word]. */
export function misspelledIn(state: EditorState): [number, number, string][] {
  const found: [number, number, string][] = [];
  state.field(misspelledField, false)?.between(0, state.doc.length, (from, to) => {
    found.push([from, to, state.doc.sliceString(from, to)]);
  });
  return found;
}

/** The menu of what to write instead of the word at [from, to). */
const showSuggestions = StateEffect.define<{ from: number; to: number; words: string[] } | null>();

function suggestionsField(noSuggestions: () => string) {
  return StateField.define<Tooltip | null>({
    create: () => null,
    update(tooltip, tr) {
      for (const effect of tr.effects) {
        if (effect.is(showSuggestions)) tooltip = effect.value && menu(effect.value, noSuggestions);
      }
      return tr.docChanged || (tr.selection && !tr.effects.some((e) => e.is(showSuggestions))) ? null : tooltip;
    },
    provide: (field) => showTooltip.from(field),
  });
}

function menu(at: { from: number; to: number; words: string[] }, noSuggestions: () => string): Tooltip {
  return {
    pos: at.from,
    above: false,
    create(view) {
      const dom = document.createElement("div");
      dom.className = "cm-suggestions";
      dom.setAttribute("role", "menu");
      dom.dataset.testid = "spelling-suggestions";
      if (at.words.length === 0) {
        const none = document.createElement("span");
        none.textContent = noSuggestions();
        dom.append(none);
      }
      for (const word of at.words) {
        const button = document.createElement("button");
        button.type = "button";
        button.setAttribute("role", "menuitem");
        button.textContent = word;
        button.addEventListener("mousedown", (event) => event.preventDefault());
        button.addEventListener("click", () => {
          view.dispatch({ changes: { from: at.from, to: at.to, insert: word }, effects: showSuggestions.of(null) });
          view.focus();
        });
        dom.append(button);
      }
      dom.addEventListener("keydown", (event) => {
        if (event.key === "Escape") view.dispatch({ effects: showSuggestions.of(null) });
      });
      return { dom };
    },
  };
}

/** Checks the whole post when it opens, when its language changes, and a moment after typing stops. */
function checker(speller: Speller): Extension {
  return ViewPlugin.fromClass(
    class {
      private timer: ReturnType<typeof setTimeout> | undefined;
      private readonly unlisten: () => void;
      private gone = false;

      constructor(private readonly view: EditorView) {
        this.schedule(0);
        this.unlisten = speller.listen(() => this.schedule(0));
      }

      update(update: ViewUpdate) {
        if (update.docChanged) this.schedule(AFTER_TYPING_MS);
      }

      private schedule(ms: number) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.check(), ms);
      }

      private async check() {
        // Korean input: nothing is dispatched while a syllable is composed.
        if (this.view.composing) return this.schedule(AFTER_TYPING_MS);
        const doc = this.view.state.doc;
        let words: Misspelled[] | null;
        try {
          words = await speller.check(doc.toString());
        } catch {
          // Spelling is a help, not a promise: the next change asks again.
          return;
        }
        if (words === null || this.gone || this.view.state.doc !== doc) return;
        this.view.dispatch({ effects: setMisspelled.of({ doc, words }) });
      }

      destroy() {
        this.gone = true;
        clearTimeout(this.timer);
        this.unlisten();
      }
    },
    {
      eventHandlers: {
        contextmenu(event, view) {
          const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
          if (pos === null) return false;
          let word: { from: number; to: number } | null = null;
          view.state.field(misspelledField).between(pos, pos, (from, to) => {
            word = { from, to };
          });
          if (word === null) return false;
          const { from, to } = word;
          event.preventDefault();
          void speller.suggest(view.state.doc.sliceString(from, to)).then((words) => {
            if (view.state.doc.sliceString(from, to) !== "") {
              view.dispatch({ effects: showSuggestions.of({ from, to, words }) });
            }
          });
          return true;
        },
      },
    },
  );
}

const look = EditorView.baseTheme({
  // Longhands: WebKitGTK ignores the shorthand with a style and a colour.
  ".cm-misspelled": {
    textDecorationLine: "underline",
    textDecorationStyle: "wavy",
    textDecorationColor: "#f03c3c",
    textDecorationSkipInk: "none",
    textUnderlineOffset: "3px",
  },
  ".cm-tooltip.cm-suggestions, .cm-suggestions": {
    display: "flex",
    flexDirection: "column",
    padding: "4px",
    minWidth: "8rem",
  },
  ".cm-suggestions button": {
    font: "inherit",
    textAlign: "left",
    border: "0",
    background: "transparent",
    padding: "3px 8px",
    cursor: "pointer",
  },
  ".cm-suggestions button:hover, .cm-suggestions button:focus": { background: "var(--selection, #dde)" },
  ".cm-suggestions span": { padding: "3px 8px", opacity: "0.7" },
});

/** Spell checking of the whole post by `speller`, on or off by the setting. */
export function spellChecking(speller: Speller, on: boolean, noSuggestions: () => string): Extension {
  return on ? [misspelledField, suggestionsField(noSuggestions), checker(speller), look] : [];
}

/** The webview's own checker, off: it marks only words as they are typed. */
export const webviewSpellingOff: Extension = EditorView.contentAttributes.of({
  spellcheck: "false",
  autocorrect: "off",
  autocapitalize: "off",
});

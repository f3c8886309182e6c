//! The front matter folded into one line while the form above the editor
//! edits it, so that it is shown once: the form, or the text (a click on the
//! folded line, or the form's `{ }`, unfolds it). While folded, typing cannot
//! reach into it (the form's own edits, undo and redo can).

import { EditorState, Facet, StateEffect, StateField, type Extension, type Transaction } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, WidgetType } from "@codemirror/view";
import { findFrontMatter } from "../front-matter";

/** Folds (true) or shows (false) the front matter. */
export const foldFrontMatter = StateEffect.define<boolean>();

/** Where the front matter is: from the start of its first line to the end of its last. */
function span(state: EditorState): { from: number; to: number; lines: number } | null {
  const doc = state.doc;
  const found = findFrontMatter((n) => (n <= doc.lines ? doc.line(n).text : undefined));
  if (!found) return null;
  return { from: doc.line(found.fromLine).from, to: doc.line(found.toLine).to, lines: found.toLine - found.fromLine + 1 };
}

class Folded extends WidgetType {
  constructor(
    readonly lines: number,
    readonly label: (lines: number) => string,
  ) {
    super();
  }

  eq(other: Folded): boolean {
    return other.lines === this.lines && other.label === this.label;
  }

  toDOM(view: EditorView): HTMLElement {
    const line = document.createElement("div");
    line.className = "cm-frontmatter-folded";
    line.setAttribute("data-testid", "front-matter-folded");
    line.setAttribute("role", "button");
    line.textContent = this.label(this.lines);
    line.addEventListener("mousedown", (event) => {
      event.preventDefault();
      view.dispatch({ effects: foldFrontMatter.of(false) });
    });
    return line;
  }

  ignoreEvent(): boolean {
    return false;
  }
}

/** Typing that would land in (or join onto) the folded front matter. */
function typesIntoFold(tr: Transaction, to: number): boolean {
  if (!tr.docChanged || !(tr.isUserEvent("input.type") || tr.isUserEvent("input.paste") || tr.isUserEvent("input.drop") || tr.isUserEvent("delete"))) {
    return false;
  }
  let touches = false;
  tr.changes.iterChangedRanges((fromA, toA) => {
    if (fromA <= to && (toA > 0 || fromA === 0)) touches = true;
  });
  return touches;
}

/** Folded when a post opens; `label` says what the folded line is (in the window's language). */
export function frontMatterFold(label: () => (lines: number) => string): Extension {
  const folded = StateField.define<boolean>({
    create: () => true,
    update(value, tr) {
      for (const effect of tr.effects) if (effect.is(foldFrontMatter)) value = effect.value;
      return value;
    },
  });
  const decorations = StateField.define<DecorationSet>({
    create: (state) => decorate(state),
    update: (decos, tr) =>
      tr.docChanged || tr.effects.some((e) => e.is(foldFrontMatter)) || tr.startState.field(folded) !== tr.state.field(folded)
        ? decorate(tr.state)
        : decos,
    provide: (field) => [EditorView.decorations.from(field), EditorView.atomicRanges.of((view) => view.state.field(field))],
  });
  function decorate(state: EditorState): DecorationSet {
    const where = state.field(folded, false) === false ? null : span(state);
    if (!where) return Decoration.none;
    const widget = new Folded(where.lines, label());
    return Decoration.set([Decoration.replace({ widget, block: true }).range(where.from, where.to)]);
  }
  const guard = EditorState.transactionFilter.of((tr) => {
    if (!tr.startState.field(folded)) return tr;
    const where = span(tr.startState);
    return where && typesIntoFold(tr, where.to) ? [] : tr;
  });
  return [folded, decorations, guard, foldedField.of(folded)];
}

/** The field that says whether the front matter is folded, for `isFolded`. */
const foldedField = Facet.define<StateField<boolean>, StateField<boolean> | null>({
  combine: (fields) => fields[0] ?? null,
});

/** Whether the state's front matter is folded (false when it has none). */
export function isFolded(state: EditorState): boolean {
  const field = state.facet(foldedField);
  return field !== null && state.field(field) && span(state) !== null;
}

/** The line (from 1) the front matter ends on, or 0 when there is none. */
export function frontMatterEnd(state: EditorState): number {
  const where = span(state);
  return where ? state.doc.lineAt(where.to).number : 0;
}

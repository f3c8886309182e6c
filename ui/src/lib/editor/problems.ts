//! The shown post's problems at their lines: each line with a problem is
//! marked (red for an error, amber for a warning) and says what is wrong at
//! its end, as the core found it (the blog's check, unsaved text in).

import { StateEffect, StateField, type EditorState, type Extension } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, WidgetType } from "@codemirror/view";

export interface LineProblem {
  line: number;
  severity: "error" | "warning";
  message: string;
}

/** The post's problems now (replacing those before). */
export const setProblems = StateEffect.define<LineProblem[]>();

class Says extends WidgetType {
  constructor(readonly problem: LineProblem) {
    super();
  }

  eq(other: Says): boolean {
    return other.problem.message === this.problem.message && other.problem.severity === this.problem.severity;
  }

  toDOM(): HTMLElement {
    const note = document.createElement("span");
    note.className = `cm-problem-note cm-problem-note-${this.problem.severity}`;
    note.setAttribute("data-testid", "editor-problem");
    note.textContent = this.problem.message;
    return note;
  }
}

function decorate(state: EditorState, problems: LineProblem[]): DecorationSet {
  const doc = state.doc;
  const byLine = new Map<number, LineProblem>();
  for (const p of problems) {
    const had = byLine.get(p.line);
    if (p.line >= 1 && p.line <= doc.lines && (!had || (had.severity === "warning" && p.severity === "error"))) byLine.set(p.line, p);
  }
  const ranges = [...byLine.values()]
    .sort((a, b) => a.line - b.line)
    .flatMap((p) => {
      const line = doc.line(p.line);
      return [
        Decoration.line({ class: `cm-problem-line cm-problem-${p.severity}` }).range(line.from),
        Decoration.widget({ widget: new Says(p), side: 1 }).range(line.to),
      ];
    });
  return Decoration.set(ranges, true);
}

export function problemLines(): Extension {
  const problems = StateField.define<LineProblem[]>({
    create: () => [],
    update(value, tr) {
      for (const effect of tr.effects) if (effect.is(setProblems)) value = effect.value;
      return value;
    },
  });
  const decorations = StateField.define<DecorationSet>({
    create: (state) => decorate(state, state.field(problems)),
    update: (decos, tr) =>
      tr.effects.some((e) => e.is(setProblems)) ? decorate(tr.state, tr.state.field(problems)) : decos.map(tr.changes),
    provide: (field) => EditorView.decorations.from(field),
  });
  return [problems, decorations];
}

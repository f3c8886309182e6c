//! Markdown tables: in a table, Tab and Shift+Tab move between cells, Enter
//! goes to the next row (adding one at the end), and the columns are aligned
//! again as you type. The table work is @susisu/mte-kernel's (the kernel of
//! markdown-table-editor, which Obsidian's Advanced Tables forked); this file
//! only lets it read and edit the editor's lines. Not while an input method is composing (Korean), and never
//! in code or front matter.

import { syntaxTree } from "@codemirror/language";
import type { Extension } from "@codemirror/state";
import { EditorView, keymap, type ViewUpdate } from "@codemirror/view";
import { type ITextEditor, options, Point, type Range, TableEditor } from "@susisu/mte-kernel";
import { findFrontMatter } from "../front-matter";

const OPTIONS = options({});
const TABLE_EVENT = "input.table";

/** The editor's lines as the kernel reads and edits them (rows from 0). */
class Lines implements ITextEditor {
  constructor(private readonly view: EditorView) {}

  private get doc() {
    return this.view.state.doc;
  }

  getCursorPosition(): Point {
    const head = this.view.state.selection.main.head;
    const line = this.doc.lineAt(head);
    return new Point(line.number - 1, head - line.from);
  }

  setCursorPosition(pos: Point): void {
    this.view.dispatch({ selection: { anchor: this.offset(pos) }, scrollIntoView: true });
  }

  setSelectionRange(range: Range): void {
    this.view.dispatch({ selection: { anchor: this.offset(range.start), head: this.offset(range.end) } });
  }

  getLastRow(): number {
    return this.doc.lines - 1;
  }

  acceptsTableEdit(row: number): boolean {
    const doc = this.doc;
    const front = findFrontMatter((n) => (n <= doc.lines ? doc.line(n).text : undefined));
    if (front && row + 1 >= front.fromLine && row + 1 <= front.toLine) return false;
    const line = doc.line(row + 1);
    for (let node: ReturnType<typeof syntaxTree>["topNode"] | null = syntaxTree(this.view.state).resolveInner(line.from, 1); node; node = node.parent) {
      if (node.name === "FencedCode" || node.name === "CodeBlock" || node.name === "HTMLBlock") return false;
    }
    return true;
  }

  getLine(row: number): string {
    return this.doc.line(row + 1).text;
  }

  insertLine(row: number, line: string): void {
    if (row > this.getLastRow()) {
      this.change(this.doc.length, this.doc.length, "\n" + line);
    } else {
      const at = this.doc.line(row + 1).from;
      this.change(at, at, line + "\n");
    }
  }

  deleteLine(row: number): void {
    const line = this.doc.line(row + 1);
    if (this.doc.lines === 1) this.change(line.from, line.to, "");
    else if (line.number === this.doc.lines) this.change(line.from - 1, line.to, "");
    else this.change(line.from, line.to + 1, "");
  }

  replaceLines(startRow: number, endRow: number, lines: string[]): void {
    const from = this.doc.line(startRow + 1).from;
    const to = this.doc.line(endRow).to;
    const insert = lines.join("\n");
    if (this.doc.sliceString(from, to) !== insert) this.change(from, to, insert);
  }

  transact(func: () => void): void {
    func();
  }

  private offset(pos: Point): number {
    const line = this.doc.line(Math.min(pos.row + 1, this.doc.lines));
    return Math.min(line.from + pos.column, line.to);
  }

  private change(from: number, to: number, insert: string): void {
    this.view.dispatch({ changes: { from, to, insert }, userEvent: TABLE_EVENT });
  }
}

/** Runs `work` on the table at the cursor; false (the key does its usual thing) outside one. */
function inTable(work: (table: TableEditor) => void) {
  return (view: EditorView): boolean => {
    if (view.composing || view.state.readOnly) return false;
    const table = new TableEditor(new Lines(view));
    if (!table.cursorIsInTable(OPTIONS)) return false;
    work(table);
    return true;
  };
}

/** Aligns the table being typed in, once the edit is done (and no composition is going on). */
function alignAfterTyping(update: ViewUpdate): void {
  if (!update.docChanged || update.view.composing) return;
  const typed = update.transactions.some(
    (tr) => (tr.isUserEvent("input.type") || tr.isUserEvent("delete")) && !tr.isUserEvent("input.type.compose"),
  );
  if (!typed || !inFinishedTable(update.view)) return;
  const view = update.view;
  queueMicrotask(() => {
    if (!view.composing) inTable((table) => table.format(OPTIONS))(view);
  });
}

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Whether the cursor is in a table that has its delimiter row: typing a first
 * `| a` is not yet a table to complete, but typing in a table realigns it.
 */
function inFinishedTable(view: EditorView): boolean {
  const doc = view.state.doc;
  const at = doc.lineAt(view.state.selection.main.head).number;
  const isRow = (n: number) => n >= 1 && n <= doc.lines && doc.line(n).text.trimStart().startsWith("|");
  if (!isRow(at)) return false;
  let first = at;
  while (isRow(first - 1)) first--;
  return first + 1 <= doc.lines && DELIMITER_ROW.test(doc.line(first + 1).text) && doc.line(first + 1).text.includes("-");
}

export function markdownTables(): Extension {
  return [
    keymap.of([
      { key: "Tab", run: inTable((table) => table.nextCell(OPTIONS)) },
      { key: "Shift-Tab", run: inTable((table) => table.previousCell(OPTIONS)) },
      { key: "Enter", run: inTable((table) => table.nextRow(OPTIONS)) },
    ]),
    EditorView.updateListener.of(alignAfterTyping),
  ];
}

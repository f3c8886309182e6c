// The parts of @susisu/mte-kernel (which ships no types) that tables.ts uses,
// as its source (lib/table-editor.js, lib/text-editor.js) defines them.

declare module "@susisu/mte-kernel" {
  export class Point {
    constructor(row: number, column: number);
    readonly row: number;
    readonly column: number;
  }

  export class Range {
    constructor(start: Point, end: Point);
    readonly start: Point;
    readonly end: Point;
  }

  /** The editor the kernel reads and edits, line by line (rows from 0). */
  export interface ITextEditor {
    getCursorPosition(): Point;
    setCursorPosition(pos: Point): void;
    setSelectionRange(range: Range): void;
    getLastRow(): number;
    acceptsTableEdit(row: number): boolean;
    getLine(row: number): string;
    insertLine(row: number, line: string): void;
    deleteLine(row: number): void;
    replaceLines(startRow: number, endRow: number, lines: string[]): void;
    transact(func: () => void): void;
  }

  export type Options = object & { readonly __mteOptions?: never };

  /** The kernel's options, with its defaults for what `values` leaves out. */
  export function options(values: object): Options;

  export class TableEditor {
    constructor(textEditor: ITextEditor);
    cursorIsInTable(options: Options): boolean;
    format(options: Options): void;
    nextCell(options: Options): void;
    previousCell(options: Options): void;
    nextRow(options: Options): void;
  }
}

import { describe, expect, it } from "vitest";
import { EditorState } from "@codemirror/state";
import { fromEditor, lineEndingOf, toEditor } from "./line-endings";

describe("line endings", () => {
  it("are read from the first line", () => {
    expect(lineEndingOf("---\r\ntitle: a\r\n---\r\n본문\r\n")).toBe("\r\n");
    expect(lineEndingOf("---\ntitle: a\n---\n")).toBe("\n");
    expect(lineEndingOf("one line")).toBe("\n");
    expect(lineEndingOf("\n")).toBe("\n");
  });

  it("come back byte for byte through CodeMirror", () => {
    for (const text of ["a\r\nb\r\n\r\n한글\r\n", "a\nb\n", "\uFEFF---\r\nx: 1\r\n---\r\n", "no ending"]) {
      const doc = EditorState.create({ doc: text }).doc.toString();
      expect(fromEditor(doc, lineEndingOf(text))).toBe(text);
    }
  });

  it("are made plain for the editor", () => {
    expect(toEditor("a\r\nb\r\n")).toBe("a\nb\n");
    expect(fromEditor(toEditor("a\r\nb\r\n"), "\r\n")).toBe("a\r\nb\r\n");
  });
});

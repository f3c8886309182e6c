import { describe, expect, it } from "vitest";
import { lineAtTop, mapOf, topOfLine } from "./line-map";

// A post: front matter on lines 1–4, a heading at 6 ("## 한국어 제목"), a
// paragraph at 8–10, a list at 12 whose first item sits at its own top.
const blocks = [
  { line: 6, top: 120 },
  { line: 8, top: 180 },
  { line: 12, top: 300 },
  { line: 12, top: 300 },
  { line: 13, top: 330 },
];

describe("line map", () => {
  it("puts each block's line at its top, and the lines between in between", () => {
    const map = mapOf(blocks);
    expect(topOfLine(map, 6)).toBe(120);
    expect(topOfLine(map, 12)).toBe(300);
    expect(topOfLine(map, 10)).toBe(240);
    // The front matter shares the space above the first block.
    expect(topOfLine(map, 1)).toBe(0);
    expect(topOfLine(map, 3.5)).toBe(60);
    // Past the last block: its top.
    expect(topOfLine(map, 40)).toBe(330);
  });

  it("finds the line drawn at a height, the other way round", () => {
    const map = mapOf(blocks);
    expect(lineAtTop(map, 0)).toBe(1);
    expect(lineAtTop(map, 119)).toBe(5);
    expect(lineAtTop(map, 120)).toBe(6);
    expect(lineAtTop(map, 240)).toBe(10);
    expect(lineAtTop(map, 299)).toBe(11);
    expect(lineAtTop(map, 5000)).toBe(13);
  });

  it("goes there and back to the same line", () => {
    const map = mapOf(blocks);
    for (let line = 1; line <= 13; line++) expect(lineAtTop(map, topOfLine(map, line))).toBe(line);
  });

  it("drops blocks that would run backwards", () => {
    const map = mapOf([
      { line: 5, top: 100 },
      { line: 3, top: 150 }, // a line before the last: dropped
      { line: 9, top: 90 }, // drawn above the last: dropped
      { line: 9, top: 200 },
    ]);
    expect(map).toEqual([
      { line: 1, top: 0 },
      { line: 5, top: 100 },
      { line: 9, top: 200 },
    ]);
  });
});

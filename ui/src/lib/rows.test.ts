import { describe, expect, it } from "vitest";
import { ROW_HEIGHT, rowsInView } from "./rows";

describe("the rows in view", () => {
  it("are those the box shows, and a few on each side", () => {
    expect(rowsInView(0, 500, 10_000)).toEqual({ first: 0, end: 19 });
    const middle = rowsInView(5000 * ROW_HEIGHT, 500, 10_000);
    expect(middle.first).toBe(4992);
    expect(middle.end).toBe(5019);
  });

  it("end with the list, however far it is scrolled", () => {
    expect(rowsInView(9_999 * ROW_HEIGHT, 500, 10_000)).toEqual({ first: 9991, end: 10_000 });
    expect(rowsInView(0, 500, 3)).toEqual({ first: 0, end: 3 });
    expect(rowsInView(400, 500, 0)).toEqual({ first: 0, end: 0 });
  });

  it("fill a tall window before the box is measured", () => {
    expect(rowsInView(0, 0, 10_000).end).toBeGreaterThanOrEqual(24);
  });
});

import { describe, expect, it } from "vitest";
import { sectionAt } from "./outline";

const outline = [
  { level: 2, id: "들어가며", title: "들어가며", line: 6 },
  { level: 3, id: "배경", title: "배경", line: 10 },
  { level: 2, id: "results", title: "Results", line: 20 },
];

describe("the outline's current section", () => {
  it("is the last heading at or before the line", () => {
    expect(sectionAt(outline, 1)).toBeNull();
    expect(sectionAt(outline, 6)?.title).toBe("들어가며");
    expect(sectionAt(outline, 9)?.title).toBe("들어가며");
    expect(sectionAt(outline, 10)?.title).toBe("배경");
    expect(sectionAt(outline, 500)?.title).toBe("Results");
    expect(sectionAt([], 3)).toBeNull();
  });
});

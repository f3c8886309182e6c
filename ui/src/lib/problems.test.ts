import { expect, it } from "vitest";
import { countProblems, problemPlace } from "./problems";
import type { Diagnostic } from "./types";

const d = (path: string, severity: "error" | "warning", line = 1): Diagnostic => ({
  path,
  line,
  column: 1,
  severity,
  message: "m",
  hint: null,
});

it("counts errors and warnings", () => {
  expect(countProblems([d("a", "error"), d("b", "warning"), d("c", "warning")])).toEqual({ errors: 1, warnings: 2 });
});

it("writes the place like hanji check", () => {
  expect(problemPlace(d("posts/a.md", "error", 12))).toBe("posts/a.md:12");
});

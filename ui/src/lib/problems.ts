//! How the problems the core found are counted and placed.

import type { Diagnostic } from "./types";

export function countProblems(problems: Diagnostic[]): { errors: number; warnings: number } {
  const errors = problems.filter((d) => d.severity === "error").length;
  return { errors, warnings: problems.length - errors };
}

/** `path:line` as `hanji check` writes it. */
export const problemPlace = (d: Diagnostic) => `${d.path}:${d.line}`;

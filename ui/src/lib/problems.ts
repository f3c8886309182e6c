//! The problems the status bar counts: the blog's, with the open post's own
//! taken from its unsaved text instead of from the disk.

import type { Diagnostic } from "./types";

export function currentProblems(blog: Diagnostic[], openPath: string | null, preview: Diagnostic[] | null): Diagnostic[] {
  if (openPath === null || preview === null) return blog;
  return [...blog.filter((d) => d.path !== openPath), ...preview];
}

export function countProblems(problems: Diagnostic[]): { errors: number; warnings: number } {
  const errors = problems.filter((d) => d.severity === "error").length;
  return { errors, warnings: problems.length - errors };
}

/** `path:line` as `hanji check` writes it. */
export const problemPlace = (d: Diagnostic) => `${d.path}:${d.line}`;

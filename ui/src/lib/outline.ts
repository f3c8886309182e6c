//! The outline's one rule: which heading's section a source line is in.

import type { Heading } from "./types";

/** The heading whose section holds `line`: the last one written at or before it (null before the first). */
export function sectionAt(outline: readonly Heading[], line: number): Heading | null {
  let found: Heading | null = null;
  for (const heading of outline) {
    if (heading.line > line) break;
    found = heading;
  }
  return found;
}

//! Source lines ↔ heights in the preview, both ways. The preview's blocks
//! carry their source line (`data-line`); between two blocks a line's height
//! is interpolated, and above the first block lines 1… (the front matter)
//! share the page's top. Pure, so both directions are tested together.

/** A block of the page: its source line, and where its top is (px from the page top). */
export interface Block {
  line: number;
  top: number;
}

/**
 * The blocks as a map can use them: in page order, lines and tops both rising
 * (a nested block at its parent's line and top adds nothing; one that goes
 * back is dropped), with line 1 at the page's top before them.
 */
export function mapOf(blocks: readonly Block[]): Block[] {
  const map: Block[] = [{ line: 1, top: 0 }];
  for (const block of blocks) {
    const last = map[map.length - 1];
    if (block.line > last.line && block.top > last.top) map.push(block);
  }
  return map;
}

/** The height where source `line` is drawn. */
export function topOfLine(map: readonly Block[], line: number): number {
  let i = 0;
  while (i + 1 < map.length && map[i + 1].line <= line) i++;
  const at = map[i];
  const next = map[i + 1];
  if (!next) return at.top;
  return at.top + ((line - at.line) / (next.line - at.line)) * (next.top - at.top);
}

/** The source line drawn at height `y`. */
export function lineAtTop(map: readonly Block[], y: number): number {
  let i = 0;
  while (i + 1 < map.length && map[i + 1].top <= y) i++;
  const at = map[i];
  const next = map[i + 1];
  if (!next) return at.line;
  return at.line + Math.floor(((y - at.top) / (next.top - at.top)) * (next.line - at.line));
}

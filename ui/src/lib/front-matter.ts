//! Where the front matter is in a post's text, so the editor can style it apart
//! from the Markdown (which would read `---` as a rule or a heading underline).

export interface FrontMatterSpan {
  format: "yaml" | "toml";
  /** First and last line of the block, fences included, from 1. */
  fromLine: number;
  toLine: number;
}

/** How far down a closing fence is looked for: an unclosed block is not styled at all. */
const MAX_LINES = 400;

export function findFrontMatter(lines: (n: number) => string | undefined): FrontMatterSpan | null {
  const first = (lines(1) ?? "").replace(/^\uFEFF/, "").trimEnd();
  const fence = first === "---" ? "---" : first === "+++" ? "+++" : null;
  if (!fence) return null;
  for (let n = 2; n <= MAX_LINES; n++) {
    const line = lines(n);
    if (line === undefined) return null;
    const trimmed = line.trimEnd();
    if (trimmed === fence || (fence === "---" && trimmed === "...")) {
      return { format: fence === "---" ? "yaml" : "toml", fromLine: 1, toLine: n };
    }
  }
  return null;
}

/** `findFrontMatter` over a whole string (for tests and plain text). */
export function findFrontMatterIn(text: string): FrontMatterSpan | null {
  const lines = text.split(/\r?\n/);
  return findFrontMatter((n) => lines[n - 1]);
}

/** The key at the start of a front matter line (`title:` / `title =`), as [start, end) within the line. */
export function frontMatterKey(line: string, format: "yaml" | "toml"): [number, number] | null {
  const match = format === "yaml" ? /^(\s*)([\w.-]+)\s*:/u.exec(line) : /^(\s*)([\w.-]+|"[^"]*")\s*=/u.exec(line);
  if (!match) return null;
  const start = match[1].length;
  return [start, start + match[2].length];
}

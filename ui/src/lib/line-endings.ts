// A post is saved with the line endings it was written with. CodeMirror reads
// any ending and hands its text back with "\n"; a Windows-made (CRLF) post
// would have every line rewritten on save. So the ending is noted when a post
// is opened, and put back on the text that leaves the editor.

export type LineEnding = "\r\n" | "\n";

/** The ending `text` is written with (its first line's). */
export function lineEndingOf(text: string): LineEnding {
  const lf = text.indexOf("\n");
  return lf > 0 && text[lf - 1] === "\r" ? "\r\n" : "\n";
}

/** Text as the editor holds it: lines ended by "\n". */
export function toEditor(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** The editor's text with the post's own endings. */
export function fromEditor(text: string, ending: LineEnding): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}

//! The smallest single edit that turns one text into another: what the editor
//! applies when the form, the disk or a retag changes the text, so that undo
//! history, cursor and IME state survive.

/** Replace `[from, to)` of the old text with `insert`; positions in UTF-16 code units, as CodeMirror counts. */
export interface Change {
  from: number;
  to: number;
  insert: string;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The change from `before` to `after` found by their common prefix and suffix,
 * or null when they are equal. Never splits a surrogate pair (emoji), so the
 * inserted text is always well-formed.
 */
export function minimalChange(before: string, after: string): Change | null {
  if (before === after) return null;
  const max = Math.min(before.length, after.length);

  let prefix = 0;
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  // Both texts share the high half of a pair but differ in the low half: the whole pair changed.
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;

  let suffix = 0;
  const room = max - prefix;
  while (
    suffix < room &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--;

  return {
    from: prefix,
    to: before.length - suffix,
    insert: after.slice(prefix, after.length - suffix),
  };
}

/** `text` with `change` applied (what CodeMirror would make of it). */
export function applyChange(text: string, change: Change | null): string {
  if (!change) return text;
  return text.slice(0, change.from) + change.insert + text.slice(change.to);
}

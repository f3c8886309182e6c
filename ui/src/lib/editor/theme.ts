//! The editor's look in light and dark: colours come from the CSS variables in
//! `app.css`, which follow `prefers-color-scheme`, so one theme serves both.

import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

const look = EditorView.theme({
  "&": {
    height: "100%",
    color: "var(--text)",
    backgroundColor: "var(--paper)",
    fontSize: "var(--editor-font-size, 15px)",
  },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": {
    fontFamily: "var(--font-mono)",
    lineHeight: "var(--editor-line-height, 1.65)",
  },
  ".cm-content": {
    padding: "var(--editor-top, 18px) 0 40vh",
    caretColor: "var(--accent)",
    maxWidth: "46rem",
  },
  ".cm-line": { padding: "0 22px" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--accent)", borderLeftWidth: "2px" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    { backgroundColor: "var(--selection)" },
  ".cm-activeLine": { backgroundColor: "transparent" },
  ".cm-searchMatch": { backgroundColor: "var(--match)", outline: "1px solid var(--match-border)" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "var(--match-selected)" },
  ".cm-selectionMatch": { backgroundColor: "var(--match)" },
  ".cm-panels": { backgroundColor: "var(--chrome)", color: "var(--text)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--line)" },
  ".cm-panel.cm-search": { fontFamily: "var(--font-ui)", padding: "6px 10px" },
  ".cm-panel.cm-search input, .cm-panel.cm-search button": { fontFamily: "var(--font-ui)", fontSize: "13px" },
  ".cm-textfield": {
    backgroundColor: "var(--paper)",
    color: "var(--text)",
    border: "1px solid var(--line)",
    borderRadius: "4px",
  },
  ".cm-button": {
    backgroundImage: "none",
    backgroundColor: "var(--paper)",
    color: "var(--text)",
    border: "1px solid var(--line)",
    borderRadius: "4px",
  },
  // The front matter block: quieter than the text, keys in the accent colour.
  ".cm-frontmatter": { backgroundColor: "var(--frontmatter)" },
  ".cm-frontmatter, .cm-frontmatter *": {
    color: "var(--text-soft) !important",
    fontWeight: "normal !important",
    fontStyle: "normal !important",
    textDecoration: "none !important",
    fontSize: "inherit !important",
  },
  ".cm-frontmatter .cm-frontmatter-key, .cm-frontmatter .cm-frontmatter-key *": {
    color: "var(--accent) !important",
  },
  ".cm-frontmatter .cm-frontmatter-fence": { color: "var(--text-faint) !important" },
  // The folded front matter: one quiet line that unfolds on a click.
  ".cm-frontmatter-folded": {
    margin: "0 22px 4px",
    padding: "1px 8px",
    borderRadius: "4px",
    backgroundColor: "var(--frontmatter)",
    color: "var(--text-faint)",
    fontFamily: "var(--font-ui)",
    fontSize: "12px",
    cursor: "pointer",
  },
  ".cm-frontmatter-folded:hover": { color: "var(--accent)" },
  // A line with a problem, and what is wrong at its end.
  ".cm-problem-line": { backgroundImage: "linear-gradient(to right, var(--problem-tint) 3px, transparent 3px)" },
  ".cm-problem-error": { "--problem-tint": "var(--danger)", backgroundColor: "var(--danger-soft)" },
  ".cm-problem-warning": { "--problem-tint": "var(--warning)", backgroundColor: "var(--warning-soft)" },
  ".cm-problem-note": {
    marginLeft: "12px",
    padding: "0 6px",
    borderRadius: "4px",
    fontFamily: "var(--font-ui)",
    fontSize: "12px",
  },
  ".cm-problem-note-error": { color: "var(--danger)" },
  ".cm-problem-note-warning": { color: "var(--warning)" },
});

const highlight = HighlightStyle.define([
  { tag: t.heading1, fontWeight: "700", fontSize: "1.3em", color: "var(--heading)" },
  { tag: t.heading2, fontWeight: "700", fontSize: "1.15em", color: "var(--heading)" },
  { tag: [t.heading3, t.heading4, t.heading5, t.heading6], fontWeight: "700", color: "var(--heading)" },
  { tag: t.strong, fontWeight: "700" },
  { tag: t.emphasis, fontStyle: "italic" },
  { tag: t.strikethrough, textDecoration: "line-through" },
  { tag: [t.link, t.url], color: "var(--link)" },
  { tag: t.monospace, color: "var(--code)" },
  { tag: [t.processingInstruction, t.meta, t.contentSeparator], color: "var(--text-faint)" },
  { tag: t.quote, color: "var(--text-soft)", fontStyle: "italic" },
  { tag: t.list, color: "var(--accent)" },
  { tag: [t.keyword, t.operatorKeyword, t.modifier, t.controlKeyword], color: "var(--hl-keyword)" },
  { tag: [t.string, t.special(t.string), t.regexp], color: "var(--hl-string)" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "var(--hl-number)" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "var(--text-faint)", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "var(--hl-function)" },
  { tag: [t.typeName, t.className, t.namespace], color: "var(--hl-type)" },
  { tag: [t.propertyName, t.attributeName], color: "var(--hl-property)" },
  { tag: [t.tagName, t.angleBracket], color: "var(--hl-keyword)" },
  { tag: t.invalid, color: "var(--danger)" },
]);

export const hanjiTheme: Extension = [look, syntaxHighlighting(highlight)];

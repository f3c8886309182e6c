//! Spell checking for prose only: the webview checks the editor's text (the
//! `spellcheck` setting turns it on or off), and this keeps it out of code —
//! fenced and indented blocks, inline code, raw HTML, links' addresses — which
//! is not prose. The front matter is kept out by `front-matter-style.ts`.

import { syntaxTree } from "@codemirror/language";
import { RangeSetBuilder, type Extension } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, ViewPlugin, type ViewUpdate } from "@codemirror/view";

const NOT_PROSE_BLOCKS = new Set(["FencedCode", "CodeBlock", "HTMLBlock", "CommentBlock"]);
const NOT_PROSE_INLINE = new Set(["InlineCode", "URL", "HTMLTag", "Autolink"]);

const offLine = Decoration.line({ attributes: { spellcheck: "false" } });
const offMark = Decoration.mark({ attributes: { spellcheck: "false" } });

function decorate(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const doc = view.state.doc;
  let lastLine = -1;
  for (const { from, to } of view.visibleRanges) {
    syntaxTree(view.state).iterate({
      from,
      to,
      enter: (node) => {
        if (NOT_PROSE_BLOCKS.has(node.name)) {
          const first = doc.lineAt(Math.max(node.from, from)).number;
          const last = doc.lineAt(Math.min(node.to, to)).number;
          for (let n = Math.max(first, lastLine + 1); n <= last; n++) {
            const line = doc.line(n);
            builder.add(line.from, line.from, offLine);
            lastLine = n;
          }
          return false;
        }
        if (NOT_PROSE_INLINE.has(node.name) && node.to > node.from) {
          builder.add(node.from, node.to, offMark);
          return false;
        }
        return undefined;
      },
    });
  }
  return builder.finish();
}

/** Keeps the spell checker to the post's prose. */
export function proseSpelling(): Extension {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = decorate(view);
      }
      update(update: ViewUpdate) {
        if (update.docChanged || update.viewportChanged || syntaxTree(update.startState) !== syntaxTree(update.state)) {
          this.decorations = decorate(update.view);
        }
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
}

/** The editor's own `spellcheck` attribute: on for a post's text, or off by the setting. */
export function spellcheckAttribute(on: boolean): Extension {
  return EditorView.contentAttributes.of({ spellcheck: on ? "true" : "false", autocorrect: "off", autocapitalize: "off" });
}

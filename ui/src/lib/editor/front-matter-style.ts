//! Styles the leading `---` YAML or `+++` TOML block apart from the Markdown,
//! and keeps the spell checker out of it (its keys and values are not prose).

import { RangeSetBuilder, StateField, type EditorState, type Extension } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView } from "@codemirror/view";
import { findFrontMatter, frontMatterKey } from "../front-matter";

const lineDeco = Decoration.line({ class: "cm-frontmatter", attributes: { spellcheck: "false" } });
const fenceDeco = Decoration.mark({ class: "cm-frontmatter-fence" });
const keyDeco = Decoration.mark({ class: "cm-frontmatter-key" });

function decorate(state: EditorState): DecorationSet {
  const doc = state.doc;
  const span = findFrontMatter((n) => (n <= doc.lines ? doc.line(n).text : undefined));
  const builder = new RangeSetBuilder<Decoration>();
  if (!span) return builder.finish();
  for (let n = span.fromLine; n <= span.toLine; n++) {
    const line = doc.line(n);
    builder.add(line.from, line.from, lineDeco);
    if (line.length === 0) continue;
    if (n === span.fromLine || n === span.toLine) {
      builder.add(line.from, line.to, fenceDeco);
      continue;
    }
    const key = frontMatterKey(line.text, span.format);
    if (key) builder.add(line.from + key[0], line.from + key[1], keyDeco);
  }
  return builder.finish();
}

export function frontMatterStyle(): Extension {
  return StateField.define<DecorationSet>({
    create: decorate,
    // Looks at 400 lines at most, so recomputing on each change is cheap.
    update: (decos, tr) => (tr.docChanged ? decorate(tr.state) : decos),
    provide: (field) => EditorView.decorations.from(field),
  });
}

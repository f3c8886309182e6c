//! The extensions every post's editor state is made with.

import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import { indentOnInput } from "@codemirror/language";
import { languages } from "@codemirror/language-data";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, dropCursor, EditorView, keymap, type ViewUpdate } from "@codemirror/view";
import { frontMatterStyle } from "./front-matter-style";
import { imageDrop } from "./images";
import { hanjiTheme } from "./theme";

export interface PostEditorHooks {
  update(update: ViewUpdate): void;
  image(file: File): void;
}

export function postExtensions(hooks: PostEditorHooks): Extension {
  return [
    history(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    markdown({ base: markdownLanguage, codeLanguages: languages }),
    frontMatterStyle(),
    EditorView.lineWrapping,
    search({ top: true }),
    highlightSelectionMatches(),
    keymap.of([...searchKeymap, ...historyKeymap, ...defaultKeymap]),
    hanjiTheme,
    imageDrop(hooks.image),
    EditorView.updateListener.of(hooks.update),
  ];
}

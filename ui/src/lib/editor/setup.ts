//! The extensions every post's editor state is made with, and the ones the
//! settings turn on and off (vim keys, spell checking) in compartments.

import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import { indentOnInput } from "@codemirror/language";
import { languages } from "@codemirror/language-data";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState, type Extension, type StateEffect } from "@codemirror/state";
import { drawSelection, dropCursor, EditorView, keymap, type ViewUpdate } from "@codemirror/view";
import { vim } from "@replit/codemirror-vim";
import { i18n } from "../i18n/index.svelte";
import { frontMatterFold } from "./front-matter-fold";
import { frontMatterStyle } from "./front-matter-style";
import { imageDrop } from "./images";
import { problemLines } from "./problems";
import { type Speller, spellChecking, webviewSpellingOff } from "./spelling";
import { markdownTables } from "./tables";
import { hanjiTheme } from "./theme";

export interface PostEditorHooks {
  update(update: ViewUpdate): void;
  image(file: File): void;
  /** Checks the spelling of the whole post. */
  speller: Speller;
}

/** What the settings change in the editor. */
export interface EditorOptions {
  vim: boolean;
  spellcheck: boolean;
}

const vimKeys = new Compartment();
const spelling = new Compartment();

const noSuggestions = () => i18n.t.editor.noSuggestions;

/** The effects that put `options` into a post's state. */
export function reconfigure(options: EditorOptions, speller: Speller): StateEffect<unknown>[] {
  return [
    vimKeys.reconfigure(options.vim ? vim() : []),
    spelling.reconfigure(spellChecking(speller, options.spellcheck, noSuggestions)),
  ];
}

export function postExtensions(hooks: PostEditorHooks): Extension {
  return [
    // Vim's keys come before every other keymap, as @replit/codemirror-vim asks.
    vimKeys.of([]),
    history(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    markdown({ base: markdownLanguage, codeLanguages: languages }),
    frontMatterStyle(),
    frontMatterFold(() => i18n.t.editor.frontMatterFolded),
    problemLines(),
    EditorView.lineWrapping,
    search({ top: true }),
    highlightSelectionMatches(),
    markdownTables(),
    keymap.of([...searchKeymap, ...historyKeymap, ...defaultKeymap]),
    webviewSpellingOff,
    spelling.of(spellChecking(hooks.speller, true, noSuggestions)),
    hanjiTheme,
    imageDrop(hooks.image),
    EditorView.updateListener.of(hooks.update),
  ];
}

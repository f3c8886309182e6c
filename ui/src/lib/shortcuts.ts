//! The app's keyboard shortcuts, for the key handler and the help overlay alike.

import type { Words } from "./i18n/en";

export type Command =
  | "save"
  | "newPost"
  | "quickOpen"
  | "export"
  | "publish"
  | "help"
  | "find"
  | "sidebar"
  | "preview"
  | "focus";

export interface KeyPress {
  key: string;
  /** The physical key (`KeyS`): with a Korean layout in Hangul mode `key` may be `ㄴ`. */
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Ctrl, or Cmd on a Mac. */
const mod = (e: KeyPress, mac: boolean) => (mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey);

/** The Latin letter or sign of the key pressed, whatever the layout's script. */
function latinKey(e: KeyPress): string {
  if (/^[\x20-\x7e]$/.test(e.key)) return e.key.toLowerCase();
  if (/^Key[A-Z]$/.test(e.code)) return e.code.slice(3).toLowerCase();
  if (e.code === "Slash") return "/";
  if (e.code === "Backslash") return "\\";
  return e.key;
}

export function commandFor(e: KeyPress, mac: boolean): Command | null {
  if (e.key === "F1") return "help";
  if (e.key === "F8" && !e.ctrlKey && !e.metaKey && !e.altKey) return "focus";
  if (!mod(e, mac) || e.altKey) return null;
  switch (latinKey(e)) {
    case "s":
      return e.shiftKey ? null : "save";
    case "n":
      return e.shiftKey ? null : "newPost";
    case "p":
      return e.shiftKey ? "publish" : "quickOpen";
    case "e":
      return e.shiftKey ? null : "export";
    case "f":
      return e.shiftKey ? null : "find";
    case "b":
      return e.shiftKey ? null : "sidebar";
    case "\\":
    case "|":
      return "preview";
    case "/":
    case "?":
      return "help";
    default:
      return null;
  }
}

export interface ShortcutHelp {
  keys: string;
  does: string;
}

/** Everything the help overlay lists, the editor's own keys included, in `words`. */
export function shortcutHelp(mac: boolean, words: Pick<Words, "help">): { group: string; items: ShortcutHelp[] }[] {
  const h = words.help;
  const m = mac ? "⌘" : "Ctrl";
  const k = (...keys: string[]) => keys.join("+");
  return [
    {
      group: h.posts,
      items: [
        { keys: k(m, "S"), does: h.save },
        { keys: k(m, "N"), does: h.newPost },
        { keys: k(m, "P"), does: h.find },
        { keys: k(m, "E"), does: h.export },
        { keys: k(m, "Shift", "P"), does: h.publish },
        { keys: `F1, ${k(m, "/")}`, does: h.help },
        { keys: "Esc", does: h.escape },
      ],
    },
    {
      group: h.window,
      items: [
        { keys: k(m, "B"), does: h.sidebar },
        { keys: k(m, "\\"), does: h.preview },
        { keys: "F8", does: h.focus },
      ],
    },
    {
      group: h.editing,
      items: [
        { keys: k(m, "Z"), does: h.undo },
        { keys: mac ? k(m, "Shift", "Z") : `${k(m, "Y")}, ${k(m, "Shift", "Z")}`, does: h.redo },
        { keys: k(m, "F"), does: h.findReplace },
        { keys: `F3, ${k(m, "G")}`, does: h.nextMatch },
        { keys: `Shift+F3, ${k(m, "Shift", "G")}`, does: h.previousMatch },
        { keys: k(m, "D"), does: h.nextOccurrence },
        { keys: k(m, "Shift", "L"), does: h.everyMatch },
        { keys: k(m, "["), does: h.indentLess },
        { keys: k(m, "]"), does: h.indentMore },
        { keys: "Enter", does: h.enter },
      ],
    },
  ];
}

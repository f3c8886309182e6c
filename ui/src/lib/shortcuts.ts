//! The app's keyboard shortcuts, for the key handler and the help overlay alike.

export type Command = "save" | "newPost" | "quickOpen" | "export" | "publish" | "help" | "find";

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
  return e.code === "Slash" ? "/" : e.key;
}

export function commandFor(e: KeyPress, mac: boolean): Command | null {
  if (e.key === "F1") return "help";
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

/** Everything the help overlay lists, the editor's own keys included. */
export function shortcutHelp(mac: boolean): { group: string; items: ShortcutHelp[] }[] {
  const m = mac ? "⌘" : "Ctrl";
  const k = (...keys: string[]) => keys.join("+");
  return [
    {
      group: "Posts",
      items: [
        { keys: k(m, "S"), does: "Save the post" },
        { keys: k(m, "N"), does: "New post" },
        { keys: k(m, "P"), does: "Open a post by title" },
        { keys: k(m, "E"), does: "Export the blog" },
        { keys: k(m, "Shift", "P"), does: "Publish the blog" },
        { keys: `F1, ${k(m, "/")}`, does: "This help" },
        { keys: "Esc", does: "Close a dialog or panel" },
      ],
    },
    {
      group: "Editing",
      items: [
        { keys: k(m, "Z"), does: "Undo (each post has its own history)" },
        { keys: mac ? k(m, "Shift", "Z") : `${k(m, "Y")}, ${k(m, "Shift", "Z")}`, does: "Redo" },
        { keys: k(m, "F"), does: "Find and replace" },
        { keys: `F3, ${k(m, "G")}`, does: "Next match" },
        { keys: `Shift+F3, ${k(m, "Shift", "G")}`, does: "Previous match" },
        { keys: k(m, "D"), does: "Select the next occurrence" },
        { keys: k(m, "Shift", "L"), does: "Select every match" },
        { keys: k(m, "["), does: "Indent less" },
        { keys: k(m, "]"), does: "Indent more" },
        { keys: "Enter", does: "New line; continues a list or quote" },
      ],
    },
  ];
}

import { expect, it } from "vitest";
import { en } from "./i18n/en";
import { commandFor, type KeyPress, shortcutHelp } from "./shortcuts";

const press = (
  key: string,
  mods: Partial<{ code: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {},
) => ({
  key,
  code: /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : "",
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

it("maps Ctrl shortcuts off a Mac", () => {
  expect(commandFor(press("s", { ctrlKey: true }), false)).toBe("save");
  expect(commandFor(press("S", { ctrlKey: true }), false)).toBe("save");
  expect(commandFor(press("n", { ctrlKey: true }), false)).toBe("newPost");
  expect(commandFor(press("p", { ctrlKey: true }), false)).toBe("quickOpen");
  expect(commandFor(press("e", { ctrlKey: true }), false)).toBe("export");
  expect(commandFor(press("P", { ctrlKey: true, shiftKey: true }), false)).toBe("publish");
  expect(commandFor(press("/", { ctrlKey: true }), false)).toBe("help");
  expect(commandFor(press("F1"), false)).toBe("help");
});

it("uses Cmd on a Mac and not Ctrl", () => {
  expect(commandFor(press("s", { metaKey: true }), true)).toBe("save");
  expect(commandFor(press("s", { ctrlKey: true }), true)).toBeNull();
});

it("leaves plain typing and other combinations alone", () => {
  expect(commandFor(press("s"), false)).toBeNull();
  expect(commandFor(press("z", { ctrlKey: true }), false)).toBeNull();
  expect(commandFor(press("s", { ctrlKey: true, altKey: true }), false)).toBeNull();
});

it("reads the physical key when a Korean layout gives Hangul", () => {
  expect(commandFor(press("ㄴ", { code: "KeyS", ctrlKey: true }), false)).toBe("save");
  expect(commandFor(press("ㅜ", { code: "KeyN", ctrlKey: true }), false)).toBe("newPost");
  expect(commandFor(press("ㄴ", { code: "KeyS" }), false)).toBeNull();
});

it("lists every app shortcut in the help", () => {
  const does = shortcutHelp(false, en).flatMap((g) => g.items.map((i) => i.keys));
  for (const keys of ["Ctrl+S", "Ctrl+N", "Ctrl+P", "Ctrl+E", "Ctrl+F", "Ctrl+Z"]) expect(does).toContain(keys);
});

it("shows and hides the panes: Ctrl+B the list, Ctrl+\\ the preview, F8 focus mode", () => {
  const press = (key: string, code: string, more: Partial<KeyPress> = {}): KeyPress => ({
    key,
    code,
    ctrlKey: true,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...more,
  });
  expect(commandFor(press("b", "KeyB"), false)).toBe("sidebar");
  expect(commandFor(press("ㅠ", "KeyB"), false)).toBe("sidebar");
  expect(commandFor(press("\\", "Backslash"), false)).toBe("preview");
  expect(commandFor(press("₩", "Backslash"), false)).toBe("preview");
  expect(commandFor(press("F8", "F8", { ctrlKey: false }), false)).toBe("focus");
  expect(commandFor(press("b", "KeyB", { ctrlKey: false, metaKey: true }), true)).toBe("sidebar");
});

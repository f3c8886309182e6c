import { en } from "./i18n/en";
import { describe, expect, it } from "vitest";
import {
  canAutosave,
  conflicted,
  edited,
  opened,
  removedOnDisk,
  restored,
  saveFailed,
  saveLabel,
  saveNote,
  saveStarted,
  saved,
  tookDisk,
} from "./post-status";
import type { PostText } from "./types";

const disk = { path: "posts/a.md", text: "hello", version: "v1" };

describe("post status", () => {
  it("opens saved", () => {
    const s = opened(disk);
    expect(s.dirty).toBe(false);
    expect(saveLabel(s)).toBe("saved");
    expect(saveNote(s, en)).toBe("");
  });

  it("is unsaved while the text differs from the disk, saved again when typed back", () => {
    const s = edited(opened(disk), "hello!");
    expect(s.dirty).toBe(true);
    expect(saveLabel(s)).toBe("unsaved");
    expect(edited(s, "hello").dirty).toBe(false);
  });

  it("says Saving… during a save", () => {
    expect(saveLabel(saveStarted(edited(opened(disk), "x")))).toBe("saving");
  });

  it("stays unsaved when typing went on during the save", () => {
    const s = saveStarted(edited(opened(disk), "hello w"));
    const after = saved(s, "hello w", "v2", "hello world");
    expect(after.version).toBe("v2");
    expect(after.savedText).toBe("hello w");
    expect(after.dirty).toBe(true);
    expect(saved(s, "hello w", "v2", "hello w").dirty).toBe(false);
  });

  it("keeps the post dirty after a failed save and says why", () => {
    const s = saveFailed(saveStarted(edited(opened(disk), "x")), { kind: "io", message: "disk full", path: null });
    expect(s.dirty).toBe(true);
    expect(s.saving).toBe(false);
    expect(saveLabel(s)).toBe("unsaved");
    expect(saveNote(s, en)).toBe("Save failed: disk full");
  });

  it("turns a conflict rejection into a conflict with their text", () => {
    const theirs = { path: "posts/a.md", text: "theirs", version: "v9" };
    const s = saveFailed(saveStarted(edited(opened(disk), "mine")), {
      kind: "conflict",
      message: "changed on disk",
      path: "posts/a.md",
      theirs,
    });
    expect(s.conflict).toEqual(theirs);
    expect(s.error).toBeNull();
    expect(saveNote(s, en)).toBe("Changed on disk");
    expect(canAutosave(s)).toBe(false);
  });

  it("takes the disk's text as saved", () => {
    const theirs = { path: "posts/a.md", text: "theirs", version: "v9" };
    const s = tookDisk(conflicted(edited(opened(disk), "mine"), theirs), theirs);
    expect(s).toMatchObject({ dirty: false, conflict: null, version: "v9", savedText: "theirs" });
  });

  it("keeps a removed post open as unsaved and never autosaves it", () => {
    const s = removedOnDisk(opened(disk));
    expect(s.dirty).toBe(true);
    expect(edited(s, "hello").dirty).toBe(true);
    expect(canAutosave(s)).toBe(false);
    expect(saveLabel(s)).toBe("unsaved");
    expect(saveNote(s, en)).toBe("File is gone from disk");
  });

  it("autosaves only dirty, idle, conflict-free posts", () => {
    expect(canAutosave(opened(disk))).toBe(false);
    expect(canAutosave(edited(opened(disk), "x"))).toBe(true);
    expect(canAutosave(saveStarted(edited(opened(disk), "x")))).toBe(false);
  });
});

describe("restored from the journal", () => {
  const saved: PostText = { path: "posts/a.md", text: "saved", version: "v1" };

  it("is unsaved, with the saved file beside it, and never autosaved", () => {
    const s = restored(opened(saved), saved);
    expect(s.dirty).toBe(true);
    expect(s.conflict).toEqual(saved);
    expect(s.restored).toBe(true);
    expect(canAutosave(s)).toBe(false);
    // A later change on disk is a plain conflict again.
    expect(conflicted(s, { ...saved, text: "theirs" }).restored).toBe(false);
  });

  it("is simply unsaved when the file is gone", () => {
    const s = restored(opened({ path: "posts/new.md", text: "", version: "" }), null);
    expect(s.dirty && s.gone).toBe(true);
    expect(s.conflict).toBeNull();
  });
});

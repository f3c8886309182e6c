import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { changed, deferred, FakeCore, fakeApp, postItem, SETTINGS, settle } from "./fake-core";
import type { Saved } from "./types";

const PATH = "posts/a.md";
const SAVED = "---\ntitle: A\n---\nHello\n";

/** A started app with `posts/a.md` open and shown. */
async function opened(core = new FakeCore()) {
  core.put(PATH, SAVED);
  core.blog.posts = [postItem(PATH, "A")];
  const app = fakeApp(core);
  await app.session.start();
  await app.posts.openPost(PATH);
  await settle();
  return app;
}

type App = Awaited<ReturnType<typeof opened>>;

/** Holds the next save until `open` is called; `reachDisk` says whether it writes before being held. */
function holdNextSave(app: App, reachDisk: "before" | "after") {
  const gate = deferred<void>();
  const real = app.api.savePost.getMockImplementation()!;
  app.api.savePost.mockImplementationOnce(async (path, text, version): Promise<Saved> => {
    if (reachDisk === "before") {
      const result = await real(path, text, version);
      await gate.promise;
      return result;
    }
    await gate.promise;
    return real(path, text, version);
  });
  return { open: () => gate.resolve() };
}

const toasts = (app: App) => app.notices.toasts.map((t) => t.message);
const status = (app: App, path = PATH) => app.posts.statuses[path];

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("autosave", () => {
  it("saves once, the delay after the last key, and not while typing goes on", async () => {
    const app = await opened();
    app.editor.type(PATH, SAVED + "1");
    await vi.advanceTimersByTimeAsync(1000);
    app.editor.type(PATH, SAVED + "12");
    await vi.advanceTimersByTimeAsync(1000);
    app.editor.type(PATH, SAVED + "123");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs - 1);
    expect(app.api.savePost).not.toHaveBeenCalled();
    expect(status(app).dirty).toBe(true);

    await vi.advanceTimersByTimeAsync(1);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);
    expect(app.api.savePost).toHaveBeenCalledWith(PATH, SAVED + "123", "v1", true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);
    expect(app.core.file(PATH)?.text).toBe(SAVED + "123");
    expect(status(app)).toMatchObject({ dirty: false, saving: false, version: app.core.file(PATH)?.version });
  });

  it("does not save a post whose text was typed back to what is on disk", async () => {
    const app = await opened();
    app.editor.type(PATH, SAVED + "x");
    app.editor.type(PATH, SAVED);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
    expect(status(app).dirty).toBe(false);
  });

  it("keeps typing done during a save unsaved, then saves it on the new version", async () => {
    const app = await opened();
    const save = holdNextSave(app, "before");
    app.editor.type(PATH, SAVED + "A");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    expect(status(app).saving).toBe(true);

    app.editor.type(PATH, SAVED + "AB");
    // No second save while the first is in flight, however long it takes.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);

    save.open();
    await settle();
    const afterFirst = app.core.file(PATH)!;
    expect(afterFirst.text).toBe(SAVED + "A");
    expect(status(app)).toMatchObject({ dirty: true, saving: false, savedText: SAVED + "A", version: afterFirst.version });
    expect(app.editor.text(PATH)).toBe(SAVED + "AB");
    expect(app.api.forgetUnsaved).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    expect(app.api.savePost).toHaveBeenCalledTimes(2);
    expect(app.api.savePost).toHaveBeenLastCalledWith(PATH, SAVED + "AB", afterFirst.version, true);
    expect(app.core.file(PATH)?.text).toBe(SAVED + "AB");
    expect(status(app)).toMatchObject({ dirty: false, version: app.core.file(PATH)?.version });
    expect(app.api.forgetUnsaved).toHaveBeenCalledWith(PATH);
  });

  it("a save asked for during a save waits for it, then writes the newer text", async () => {
    const app = await opened();
    const save = holdNextSave(app, "after");
    app.editor.type(PATH, SAVED + "A");
    const first = app.posts.save(PATH);
    await settle();
    app.editor.type(PATH, SAVED + "AB");
    const second = app.posts.save(PATH);
    await settle();
    expect(app.api.savePost).toHaveBeenCalledTimes(1);

    save.open();
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(app.api.savePost.mock.calls.map((c) => c[1])).toEqual([SAVED + "A", SAVED + "AB"]);
    expect(app.api.savePost.mock.calls[1][2]).toBe("v2");
    expect(app.core.file(PATH)?.text).toBe(SAVED + "AB");
    expect(status(app).dirty).toBe(false);
  });
});

describe("conflicts", () => {
  /** Another program wrote the file, and the watcher has not said so yet. */
  async function refusedSave() {
    const app = await opened();
    const theirs = app.core.put(PATH, SAVED + "Theirs.\n");
    app.editor.type(PATH, SAVED + "Mine.\n");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    return { app, theirs };
  }

  it("shows a save refused with `conflict`, and never overwrites", async () => {
    const { app, theirs } = await refusedSave();
    expect(status(app)).toMatchObject({ conflict: theirs, dirty: true, saving: false, error: null });
    expect(app.editor.text(PATH)).toBe(SAVED + "Mine.\n");
    expect(app.core.file(PATH)).toEqual(theirs);
    // Neither autosave nor a save by hand writes over it.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await app.posts.save(PATH)).toBe(false);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);
    expect(app.api.overwritePost).not.toHaveBeenCalled();
    expect(app.core.file(PATH)).toEqual(theirs);
    expect(toasts(app)).toContain(`${PATH} changed on disk: keep yours or take theirs first.`);
  });

  it("reads their text when the refusal does not carry it", async () => {
    const app = await opened();
    const theirs = app.core.put(PATH, SAVED + "Theirs.\n");
    app.api.savePost.mockRejectedValueOnce({ kind: "conflict", message: "changed", path: PATH });
    app.editor.type(PATH, SAVED + "Mine.\n");
    expect(await app.posts.save(PATH)).toBe(false);
    expect(status(app).conflict).toEqual(theirs);
  });

  it("Keep mine saves over the version on disk now", async () => {
    const { app, theirs } = await refusedSave();
    await app.posts.keepMine(PATH);
    expect(app.api.savePost).toHaveBeenLastCalledWith(PATH, SAVED + "Mine.\n", theirs.version, false);
    expect(app.core.file(PATH)?.text).toBe(SAVED + "Mine.\n");
    expect(status(app)).toMatchObject({ conflict: null, dirty: false, version: app.core.file(PATH)?.version });
  });

  it("Keep mine after yet another change on disk is a new conflict, not an overwrite", async () => {
    const { app } = await refusedSave();
    const newer = app.core.put(PATH, SAVED + "Theirs again.\n");
    await app.posts.keepMine(PATH);
    expect(app.core.file(PATH)).toEqual(newer);
    expect(status(app).conflict).toEqual(newer);
    expect(app.editor.text(PATH)).toBe(SAVED + "Mine.\n");
    expect(app.api.overwritePost).not.toHaveBeenCalled();
  });

  it("Take theirs replaces the text, and later saves go on from their version", async () => {
    const { app, theirs } = await refusedSave();
    await app.posts.takeTheirs(PATH);
    expect(app.editor.text(PATH)).toBe(theirs.text);
    expect(status(app)).toMatchObject({ conflict: null, dirty: false, version: theirs.version, savedText: theirs.text });
    expect(app.api.forgetUnsaved).toHaveBeenCalledWith(PATH);

    app.editor.type(PATH, theirs.text + "More.\n");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    expect(app.api.savePost).toHaveBeenLastCalledWith(PATH, theirs.text + "More.\n", theirs.version, true);
    expect(app.core.file(PATH)?.text).toBe(theirs.text + "More.\n");
  });

  it("Show both shows their text beside mine and hides it again", async () => {
    const { app } = await refusedSave();
    app.posts.toggleShowBoth(PATH);
    expect(app.posts.status?.showBoth).toBe(true);
    app.posts.toggleShowBoth(PATH);
    expect(app.posts.status?.showBoth).toBe(false);
  });
});

describe("changes on disk", () => {
  it("reload an open post without unsaved edits", async () => {
    const app = await opened();
    const theirs = app.core.writeElsewhere(PATH, SAVED + "Written by another editor.\n");
    await settle();
    expect(app.editor.text(PATH)).toBe(theirs.text);
    expect(status(app)).toMatchObject({ dirty: false, conflict: null, version: theirs.version });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
  });

  it("make a conflict of a post with unsaved edits, never a silent overwrite", async () => {
    const app = await opened();
    app.editor.type(PATH, SAVED + "Mine, not saved yet.\n");
    const theirs = app.core.writeElsewhere(PATH, SAVED + "Theirs, written meanwhile.\n");
    await settle();
    expect(status(app)).toMatchObject({ conflict: theirs, dirty: true });
    expect(app.editor.text(PATH)).toBe(SAVED + "Mine, not saved yet.\n");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
    expect(app.api.overwritePost).not.toHaveBeenCalled();
    expect(app.core.file(PATH)).toEqual(theirs);
  });

  it("during a save that the disk then refuses, end as a conflict with both texts kept", async () => {
    const app = await opened();
    const save = holdNextSave(app, "after");
    app.editor.type(PATH, SAVED + "Mine.\n");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    const theirs = app.core.writeElsewhere(PATH, SAVED + "Theirs.\n");
    await settle();
    save.open();
    await settle();
    expect(status(app)).toMatchObject({ conflict: theirs, dirty: true, saving: false });
    expect(app.core.file(PATH)).toEqual(theirs);
    expect(app.editor.text(PATH)).toBe(SAVED + "Mine.\n");
  });

  it("after a save that reached the disk first, take the newer file like any change", async () => {
    const app = await opened();
    const save = holdNextSave(app, "before");
    app.editor.type(PATH, SAVED + "Mine.\n");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    const theirs = app.core.writeElsewhere(PATH, SAVED + "Mine.\nAnd theirs after it.\n");
    await settle();
    save.open();
    await settle();
    // Mine was saved; theirs came after it, onto a post with nothing unsaved: it reloads.
    expect(app.editor.text(PATH)).toBe(theirs.text);
    expect(status(app)).toMatchObject({ conflict: null, dirty: false, version: theirs.version });
  });

  it("follow a rename by another program, with the version the disk has", async () => {
    const app = await opened();
    app.core.disk.delete(PATH);
    const moved = app.core.put("posts/moved.md", SAVED);
    app.core.emit(changed(app.core.blog, { renamed: [{ from: PATH, to: moved.path, external: true }] }));
    await settle();
    expect(app.posts.current).toBe(moved.path);
    expect(status(app, moved.path)).toMatchObject({ path: moved.path, version: moved.version, dirty: false });
    expect(app.editor.text(moved.path)).toBe(SAVED);
    expect(app.posts.isOpen(PATH)).toBe(false);
  });
});

describe("removed from disk", () => {
  const removedNotice = (app: App) => toasts(app).filter((t) => t.includes("was removed from disk"));

  async function answer(app: App, value: string | null) {
    await settle();
    app.notices.modal!.resolve(value);
    await settle();
  }

  it("the author's own delete closes the post quietly", async () => {
    const app = await opened();
    const deleting = app.posts.deleteCurrent("A");
    await answer(app, "");
    await deleting;
    expect(app.api.deletePost).toHaveBeenCalledWith(PATH);
    expect(app.posts.current).toBeNull();
    expect(app.posts.isOpen(PATH)).toBe(false);
    expect(toasts(app)).toContain(`Moved ${PATH} to the trash.`);

    app.core.removed(PATH, false);
    await settle();
    expect(removedNotice(app)).toEqual([]);
  });

  it("the author's own delete is no news even when the watcher tells of it first", async () => {
    const app = await opened();
    const held = deferred<string>();
    app.api.deletePost.mockImplementationOnce(() => held.promise);
    const deleting = app.posts.deleteCurrent("A");
    await answer(app, "");
    app.core.removed(PATH, false);
    await settle();
    expect(removedNotice(app)).toEqual([]);
    expect(status(app).gone).toBe(false);

    held.resolve("Moved to the trash.");
    await deleting;
    expect(app.posts.isOpen(PATH)).toBe(false);
    expect(removedNotice(app)).toEqual([]);
  });

  it("a removal by another program keeps the text, says so, and is never autosaved", async () => {
    const app = await opened();
    app.editor.type(PATH, SAVED + "Mine.\n");
    app.core.removed(PATH, true);
    await settle();
    expect(removedNotice(app)).toEqual([
      `${PATH} was removed from disk. Its text is still here, unsaved; save to write it again.`,
    ]);
    expect(status(app)).toMatchObject({ gone: true, dirty: true });
    expect(app.editor.text(PATH)).toBe(SAVED + "Mine.\n");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
    expect(app.api.overwritePost).not.toHaveBeenCalled();

    // Saving by hand writes it again.
    expect(await app.posts.save(PATH)).toBe(true);
    expect(app.api.overwritePost).toHaveBeenCalledWith(PATH, SAVED + "Mine.\n");
    expect(app.core.file(PATH)?.text).toBe(SAVED + "Mine.\n");
  });

  it("a cancelled delete deletes nothing", async () => {
    const app = await opened();
    const deleting = app.posts.deleteCurrent("A");
    await answer(app, null);
    await deleting;
    expect(app.api.deletePost).not.toHaveBeenCalled();
    expect(app.posts.current).toBe(PATH);
  });
});

describe("rename", () => {
  it("starts from the post's slug as the sidebar lists it, and follows the post to its new path", async () => {
    const app = await opened();
    const renaming = app.posts.renameCurrent();
    await settle();
    expect(app.notices.modal?.input?.value).toBe("a");
    app.notices.modal!.resolve("b");
    await renaming;
    expect(app.api.renamePost).toHaveBeenCalledWith(PATH, "b");
    expect(app.posts.current).toBe("posts/b.md");
    expect(status(app, "posts/b.md")).toMatchObject({ dirty: false, version: app.core.file("posts/b.md")?.version });
    expect(app.editor.text("posts/b.md")).toBe(SAVED);
    // Its own rename coming back from the watcher changes nothing more.
    app.core.emit(changed(app.core.blog, { renamed: [{ from: PATH, to: "posts/b.md", external: false }] }));
    await settle();
    expect(app.posts.current).toBe("posts/b.md");
    expect(app.api.readPost).toHaveBeenCalledTimes(1);
  });

  it("starts empty for a post the sidebar does not list", async () => {
    const app = await opened();
    const making = app.posts.newPost();
    await settle();
    app.notices.modal!.resolve("New one");
    await making;
    expect(app.posts.current).toBe("posts/new-one.md");
    const renaming = app.posts.renameCurrent();
    await settle();
    expect(app.notices.modal?.input?.value).toBe("");
    app.notices.modal!.resolve(null);
    await renaming;
    expect(app.api.renamePost).not.toHaveBeenCalled();
  });
});

describe("saved versions", () => {
  it("an autosave says it is one, a save asked for does not: the core keeps a version of each asked save only", async () => {
    const app = await opened();
    app.editor.type(PATH, SAVED + "typed");
    await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs);
    expect(app.api.savePost).toHaveBeenLastCalledWith(PATH, SAVED + "typed", "v1", true);
    app.editor.type(PATH, SAVED + "typed, then Ctrl+S");
    await app.posts.save(PATH);
    expect(app.api.savePost).toHaveBeenLastCalledWith(PATH, SAVED + "typed, then Ctrl+S", expect.any(String), false);
  });
});

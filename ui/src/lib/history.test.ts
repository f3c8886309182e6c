import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApp, postItem, settle } from "./fake-core";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const PATH = "posts/a.md";
const FIRST = "---\ntitle: 가\n---\n\n월요일의 문단.\n";

/** The app with the post `FIRST` open and the History panel shown. */
async function withHistoryOpen() {
  const app = fakeApp();
  app.core.blog.posts = [postItem(PATH, "가")];
  app.core.put(PATH, FIRST);
  await app.session.start();
  await app.posts.openPost(PATH);
  app.history.toggle();
  await settle();
  return app;
}

describe("the history of saved versions", () => {
  it("lists each save's replaced text, and restores one as an edit of the post", async () => {
    const app = await withHistoryOpen();
    expect(app.history.versions).toEqual([]);

    app.editor.type(PATH, FIRST + "\n화요일에 더함.\n");
    await app.posts.save(PATH);
    app.editor.type(PATH, FIRST + "\n수요일에 또 더함.\n");
    await app.posts.save(PATH);
    await settle();
    expect(app.history.versions.map((v) => v.id)).toEqual(["1", "0"]);

    await app.history.choose("0");
    expect(app.history.chosen?.text).toBe(FIRST);
    await app.history.restore(app.history.chosen!.text);
    // The editor's text, not the file: the author saves it (or undoes it) as any edit.
    expect(app.editor.text(PATH)).toBe(FIRST);
    expect(app.core.file(PATH)?.text).toBe(FIRST + "\n수요일에 또 더함.\n");
    expect(app.posts.status?.dirty).toBe(true);
    expect(app.history.chosen).toBeNull();
  });

  it("lists the text another program's write replaced, as soon as the watcher reports it", async () => {
    const app = await withHistoryOpen();
    expect(app.history.versions).toEqual([]);

    app.core.writeElsewhere(PATH, FIRST + "\n다른 편집기에서 더함.\n");
    await settle();
    expect(app.history.versions.map((v) => v.cause)).toEqual([{ kind: "outside" }]);
    await app.history.choose(app.history.versions[0].id);
    expect(app.history.chosen?.text).toBe(FIRST);
    // The open post, unchanged here, took the new text.
    expect(app.editor.text(PATH)).toBe(FIRST + "\n다른 편집기에서 더함.\n");
  });

  it("says why a version cannot be read", async () => {
    const app = await withHistoryOpen();
    app.history.versions = [{ id: "9", savedAt: 1, bytes: 1, added: 0, removed: 0, cause: { kind: "save" } }];
    await app.history.choose("9");
    expect(app.history.chosen).toBeNull();
    expect(app.history.error).toContain("no version 9");
  });
});

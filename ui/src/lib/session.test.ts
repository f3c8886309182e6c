import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { changed, deferred, FakeCore, fakeApp, postItem, settle, EDITOR_SETTINGS } from "./fake-core";
import type { Settings, StartInfo } from "./types";

const PATH = "posts/a.md";
const SAVED = "---\ntitle: A\n---\nHello\n";

function coreWith(settings: Settings) {
  const core = new FakeCore();
  core.put(PATH, SAVED);
  core.blog.posts = [postItem(PATH, "A")];
  core.startInfo = { blog: core.blog, recent: [core.blog.root], settings, error: null };
  return core;
}

async function startedWith(settings: Settings) {
  const app = fakeApp(coreWith(settings));
  await app.session.start();
  await app.posts.openPost(PATH);
  return app;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("settings come from the core", () => {
  it("autosaves after the delay the core sent", async () => {
    const app = await startedWith({ autosave: true, autosaveDelayMs: 300, newPostAsBundle: false, ...EDITOR_SETTINGS });
    expect(app.session.settings).toEqual({ autosave: true, autosaveDelayMs: 300, newPostAsBundle: false, ...EDITOR_SETTINGS });
    app.editor.type(PATH, SAVED + "x");
    await vi.advanceTimersByTimeAsync(299);
    expect(app.api.savePost).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);
  });

  it("never autosaves when the core says autosave is off", async () => {
    const app = await startedWith({ autosave: false, autosaveDelayMs: 300, newPostAsBundle: false, ...EDITOR_SETTINGS });
    app.editor.type(PATH, SAVED + "x");
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
    expect(app.posts.status?.dirty).toBe(true);
  });

  it("has no settings, and so no autosave, until `start` has answered", async () => {
    const core = coreWith({ autosave: true, autosaveDelayMs: 300, newPostAsBundle: false, ...EDITOR_SETTINGS });
    const answer = deferred<StartInfo>();
    core.api.start.mockImplementationOnce(() => answer.promise);
    const app = fakeApp(core);
    const starting = app.session.start();
    expect(app.session.settings).toBeNull();
    expect(app.session.starting).toBe(true);
    await app.posts.openPost(PATH);
    app.editor.type(PATH, SAVED + "x");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
    // Changing a setting before there are any changes nothing.
    await app.session.updateSettings({ autosave: true });
    expect(app.session.settings).toBeNull();
    expect(app.api.saveSettings).not.toHaveBeenCalled();

    answer.resolve(core.startInfo!);
    await starting;
    expect(app.session.starting).toBe(false);
    app.editor.type(PATH, SAVED + "xy");
    await vi.advanceTimersByTimeAsync(300);
    expect(app.api.savePost).toHaveBeenCalledWith(PATH, SAVED + "xy", "v1", true);
  });

  it("has no settings when `start` fails, and shows why", async () => {
    const core = coreWith({ autosave: true, autosaveDelayMs: 300, newPostAsBundle: false, ...EDITOR_SETTINGS });
    core.api.start.mockRejectedValueOnce({ kind: "io", message: "config unreadable", path: null });
    const app = fakeApp(core);
    await app.session.start();
    expect(app.session.settings).toBeNull();
    expect(app.session.startError?.message).toBe("config unreadable");
    expect(app.session.starting).toBe(false);
  });

  it("a changed delay applies to the next pause, and is saved whole", async () => {
    const app = await startedWith({ autosave: true, autosaveDelayMs: 5000, newPostAsBundle: true, ...EDITOR_SETTINGS });
    app.editor.type(PATH, SAVED + "x");
    await app.session.updateSettings({ autosaveDelayMs: 500 });
    expect(app.api.saveSettings).toHaveBeenCalledWith({ autosave: true, autosaveDelayMs: 500, newPostAsBundle: true, ...EDITOR_SETTINGS });
    await vi.advanceTimersByTimeAsync(500);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);
  });

  it("turning autosave off stops a save that was waiting", async () => {
    const app = await startedWith({ autosave: true, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    app.editor.type(PATH, SAVED + "x");
    await vi.advanceTimersByTimeAsync(500);
    await app.session.updateSettings({ autosave: false });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(app.api.savePost).not.toHaveBeenCalled();
  });
});

describe("another blog", () => {
  it("is opened once everything is saved: posts close, the filter is cleared, the blog is recent", async () => {
    const app = await startedWith({ autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    app.sidebar.filterByTag("nccl");
    app.editor.type(PATH, SAVED + "x");
    await app.session.open("/other");
    expect(app.api.savePost).toHaveBeenCalledWith(PATH, SAVED + "x", "v1", false);
    expect(app.session.blog?.root).toBe("/other");
    expect(app.session.recent).toEqual(["/other", "/blog"]);
    expect(app.posts.current).toBeNull();
    expect(app.posts.statuses).toEqual({});
    expect(app.sidebar.tag).toBeNull();
    expect(app.api.watch).toHaveBeenCalledTimes(2);
  });

  it("is not opened over a post that could not be saved", async () => {
    const app = await startedWith({ autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    app.core.put(PATH, "changed elsewhere");
    app.editor.type(PATH, SAVED + "x");
    await app.session.open("/other");
    expect(app.api.openBlog).not.toHaveBeenCalled();
    expect(app.session.blog?.root).toBe("/blog");
    expect(app.posts.current).toBe(PATH);
    expect(app.notices.toasts.map((t) => t.message)).toContain(
      "Some posts could not be saved, so the blog was not switched.",
    );
  });

  it("drops what the earlier blog's watcher still sends", async () => {
    const app = await startedWith({ autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    const oldStream = app.api.watch.mock.calls[0][0];
    await app.session.open("/other");
    oldStream({ kind: "notice", message: "from the old blog" });
    oldStream(changed(app.core.blog, {}));
    await settle();
    expect(app.session.blog?.root).toBe("/other");
    expect(app.notices.toasts.map((t) => t.message)).not.toContain("from the old blog");
  });
});

describe("the folder", () => {
  it("is marked gone and back as the watcher says", async () => {
    const app = await startedWith({ autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    app.core.emit({ kind: "gone", message: "The blog folder is gone." });
    expect(app.session.folderGone).toBe("The blog folder is gone.");
    app.core.emit({ kind: "back", message: "The blog folder is back." });
    expect(app.session.folderGone).toBeNull();
  });
});

describe("a large blog", () => {
  it("shows how far reading it has come until it is open", async () => {
    const core = coreWith({ autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    const answer = deferred<StartInfo>();
    core.api.start.mockImplementationOnce((onLoading) => {
      onLoading?.({ root: "/blog", read: 2500, total: 10000 });
      return answer.promise;
    });
    const app = fakeApp(core);
    const starting = app.session.start();
    expect(app.session.loading).toEqual({ root: "/blog", read: 2500, total: 10000 });
    expect(app.session.blog).toBeNull();
    answer.resolve(core.startInfo!);
    await starting;
    expect(app.session.loading).toBeNull();
    expect(app.session.blog?.posts.map((p) => p.path)).toEqual([PATH]);
  });

  it("follows a change to one post without the whole list", async () => {
    const app = await startedWith({ autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS });
    const newer = { ...postItem("posts/b.md", "B"), date: "2026-08-01" };
    const update = changed(app.core.blog, { added: [{ path: "posts/b.md", external: true }] });
    app.core.emit({ ...update, posts: { all: null, put: [{ at: 0, post: newer }], removed: [] } });
    await settle();
    expect(app.session.blog?.posts.map((p) => p.path)).toEqual(["posts/b.md", PATH]);
  });
});

import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { FakeCore, fakeApp, postItem, settle } from "./fake-core";
import { Notices } from "./notices.svelte";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

it("lets notices go by themselves, later when they offer an action; errors stay", async () => {
  const notices = new Notices();
  notices.notify("Saved the export.");
  notices.notify("Renamed.", "info", { label: "Undo", run: () => {} });
  notices.notifyError({ kind: "io", message: "disk full", path: "posts/a.md" });
  expect(notices.toasts.map((t) => t.message)).toEqual(["Saved the export.", "Renamed.", "disk full (posts/a.md)"]);
  await vi.advanceTimersByTimeAsync(6000);
  expect(notices.toasts.map((t) => t.message)).toEqual(["Renamed.", "disk full (posts/a.md)"]);
  await vi.advanceTimersByTimeAsync(6000);
  expect(notices.toasts.map((t) => t.message)).toEqual(["disk full (posts/a.md)"]);
});

it("answers an earlier question with null when another is asked", async () => {
  const notices = new Notices();
  const first = notices.ask({ title: "First", ok: "OK" });
  const second = notices.ask({ title: "Second", ok: "OK" });
  expect(await first).toBeNull();
  expect(notices.modal?.title).toBe("Second");
  notices.modal!.resolve("yes");
  expect(await second).toBe("yes");
  expect(notices.modal).toBeNull();
});

it("counts the open post's problems from its unsaved text, and goes to one", async () => {
  const core = new FakeCore();
  core.put("posts/a.md", "---\ntitle: A\n---\n");
  core.blog.posts = [postItem("posts/a.md", "A")];
  const onDisk = { path: "posts/a.md", line: 2, column: 1, severity: "error" as const, message: "old", hint: null };
  const elsewhere = { ...onDisk, path: "hanji.toml", message: "bad config" };
  core.blog.problems = [onDisk, elsewhere];
  const unsaved = { ...onDisk, line: 3, message: "new" };
  core.api.preview.mockImplementation(async (path) => ({
    url: `preview://localhost/${path}`,
    html: "<html></html>",
    outline: [],
    fields: { title: "A", date: null, tags: [], summary: null, draft: false, error: null },
    words: 0,
    readingMinutes: 0,
    problems: [unsaved],
  }));
  const app = fakeApp(core);
  await app.session.start();
  expect(app.problems.list).toEqual([onDisk, elsewhere]);

  app.panels.shown = "problems";
  await app.problems.goTo(onDisk);
  await settle();
  expect(app.posts.current).toBe("posts/a.md");
  expect(app.panels.shown).toBeNull();
  expect(app.problems.list).toEqual([elsewhere, unsaved]);

  await app.problems.goTo(elsewhere);
  expect(app.notices.toasts.at(-1)?.message).toBe("hanji.toml is not a post: open it in another editor to fix it.");
});

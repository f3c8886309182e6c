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

it("lists the whole blog's problems as the core checks them, and goes to one", async () => {
  const core = new FakeCore();
  core.put("posts/a.md", "---\ntitle: A\n---\n");
  core.blog.posts = [postItem("posts/a.md", "A")];
  const onDisk = { path: "posts/a.md", line: 2, column: 1, severity: "error" as const, message: "old", hint: null };
  const elsewhere = { ...onDisk, path: "hanji.toml", message: "bad config" };
  const app = fakeApp(core);
  await app.session.start();
  expect(app.problems.checking).toBe(true);
  expect(app.problems.list).toEqual([]);
  core.emit({ kind: "problems", problems: [onDisk, elsewhere] });
  expect(app.problems.checking).toBe(false);
  expect(app.problems.list).toEqual([onDisk, elsewhere]);

  app.panels.shown = "problems";
  await app.problems.goTo(onDisk);
  await settle();
  expect(app.posts.current).toBe("posts/a.md");
  expect(app.panels.shown).toBeNull();
  // The core checks the unsaved text and sends the set again: it is the list, as it is.
  const unsaved = { ...onDisk, line: 3, message: "new" };
  core.emit({ kind: "problems", problems: [elsewhere, unsaved] });
  expect(app.problems.list).toEqual([elsewhere, unsaved]);

  await app.problems.goTo(elsewhere);
  expect(app.notices.toasts.at(-1)?.message).toBe("hanji.toml is not a post: open it in another editor to fix it.");
});

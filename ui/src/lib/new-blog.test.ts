import { beforeEach, expect, it, vi } from "vitest";
import { fakeApp, FakeCore, settle } from "./fake-core";
import { i18n } from "./i18n/index.svelte";

beforeEach(() => {
  vi.useFakeTimers();
});

it("asks for title, language and author, places it in the documents or a folder chosen, and opens it", async () => {
  const core = new FakeCore();
  const app = fakeApp(core);
  await app.session.start();
  i18n.preference = "ko";
  app.newBlog.open();
  expect(app.panels.shown).toBe("newBlog");
  expect(app.newBlog.locale).toBe("ko-KR");
  app.newBlog.setTitle("My Notes");
  await settle();
  expect(app.newBlog.folder).toBe("/docs/my-notes");
  await app.newBlog.chooseParent();
  expect(app.newBlog.folder).toBe("/chosen/my-notes");
  app.newBlog.author = "한지수";
  await app.newBlog.make();
  expect(core.api.newBlog).toHaveBeenCalledWith(
    { title: "My Notes", locale: "ko-KR", author: "한지수", folder: "/chosen/my-notes" },
    expect.any(Function),
  );
  expect(app.session.blog?.root).toBe("/chosen/my-notes");
  expect(app.panels.shown).toBeNull();
  i18n.preference = "en";
});

it("tries the sample: a copy, opened", async () => {
  const core = new FakeCore();
  const app = fakeApp(core);
  await app.session.start();
  expect(await app.session.trySample()).toBe(true);
  expect(app.session.blog?.root).toBe("/docs/hanji-sample");
  expect(app.session.recent[0]).toBe("/docs/hanji-sample");
});

import { beforeEach, expect, it, vi } from "vitest";
import { fakeApp, FakeCore, settle } from "./fake-core";

beforeEach(() => {
  vi.useFakeTimers();
});

it("asks for the export and a new folder, imports, opens the new blog and keeps the report", async () => {
  const core = new FakeCore();
  const app = fakeApp(core);
  await app.session.start();
  app.importBlog.open();
  expect(app.panels.shown).toBe("importBlog");
  await app.importBlog.chooseExport();
  await settle();
  expect(app.importBlog.source).toBe("/exports/wordpress.xml");
  expect(app.importBlog.folder).toBe("/docs/wordpress");
  await app.importBlog.chooseParent();
  expect(app.importBlog.folder).toBe("/chosen/wordpress");
  await app.importBlog.run();
  expect(core.api.importBlog).toHaveBeenCalledWith(
    { source: "/exports/wordpress.xml", folder: "/chosen/wordpress" },
    expect.any(Function),
    expect.any(Function),
  );
  expect(app.session.blog?.root).toBe("/chosen/wordpress");
  expect(app.importBlog.report?.counts).toEqual([{ kind: "posts", count: 2 }, { kind: "drafts", count: 1 }]);
  expect(app.importBlog.report?.notes).toHaveLength(1);
  expect(app.importBlog.step).toBe("velog: 1 posts listed");
  expect(app.panels.shown).toBe("importBlog");
  app.importBlog.close();
  expect(app.panels.shown).toBeNull();
});

it("keeps the import's error, with its hint, in the dialog; the open blog stays", async () => {
  const core = new FakeCore();
  const app = fakeApp(core);
  await app.session.start();
  const before = app.session.blog?.root;
  core.api.importBlog.mockRejectedValueOnce({
    kind: "exists",
    message: "`/docs/mine` already has files that are not an earlier import of this export",
    path: "/docs/mine",
    hint: "name a new folder with --into (an import never writes into another blog's files)",
  });
  app.importBlog.open();
  app.importBlog.setSource("velog:@me");
  await settle();
  await app.importBlog.run();
  expect(app.importBlog.report).toBeNull();
  expect(app.importBlog.error?.kind).toBe("exists");
  expect(app.importBlog.error?.hint).toContain("new folder");
  expect(app.session.blog?.root).toBe(before);
  expect(app.importBlog.busy).toBe(false);
});

it("does nothing without a source", async () => {
  const core = new FakeCore();
  const app = fakeApp(core);
  await app.session.start();
  app.importBlog.open();
  await app.importBlog.run();
  expect(core.api.importBlog).not.toHaveBeenCalled();
  expect(app.importBlog.folder).toBe("");
});

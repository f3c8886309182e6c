import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { FakeCore, fakeApp, SETTINGS, settle } from "./fake-core";

const PATH = "posts/a.md";

function coreWithKeptText() {
  const core = new FakeCore();
  const saved = core.put(PATH, "---\ntitle: A\n---\nSaved.\n");
  core.api.recovered.mockResolvedValue([{ path: PATH, text: saved.text + "Typed before the kill.\n", keptAt: 1, saved }]);
  return { core, saved };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

it("offers kept text back at start; restored, it is unsaved beside the saved file and never autosaved", async () => {
  const { core, saved } = coreWithKeptText();
  const app = fakeApp(core);
  await app.session.start();
  await settle();
  expect(app.notices.modal?.title).toBe("Restore unsaved text?");
  expect(app.notices.modal?.list).toEqual([PATH]);
  app.notices.modal!.resolve("");
  await settle();

  expect(app.posts.current).toBe(PATH);
  expect(app.editor.text(PATH)).toBe(saved.text + "Typed before the kill.\n");
  expect(app.posts.status).toMatchObject({ restored: true, dirty: true, conflict: saved });
  await vi.advanceTimersByTimeAsync(SETTINGS.autosaveDelayMs * 10);
  expect(app.api.savePost).not.toHaveBeenCalled();

  await app.posts.keepMine(PATH);
  expect(app.core.file(PATH)?.text).toBe(saved.text + "Typed before the kill.\n");
  expect(app.posts.status).toMatchObject({ restored: false, dirty: false, conflict: null });
});

it("throws the kept text away when the author says no", async () => {
  const { core } = coreWithKeptText();
  const app = fakeApp(core);
  await app.session.start();
  await settle();
  app.notices.modal!.resolve(null);
  await settle();
  expect(app.api.discardRecovered).toHaveBeenCalledWith(PATH);
  expect(app.posts.current).toBeNull();
});

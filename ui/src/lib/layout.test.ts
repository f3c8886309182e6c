import { expect, it } from "vitest";
import { fakeApp, FakeCore, SETTINGS } from "./fake-core";
import { MIN_EDITOR, MIN_PREVIEW, MIN_SIDEBAR, paneWidths, SPLITTER } from "./layout.svelte";

it("shares the window: the list as wide as asked, the preview half of the rest, the editor what is left", () => {
  expect(paneWidths(1024, 260, 0)).toEqual({ sidebar: 260, preview: 377, editor: 377 });
  expect(paneWidths(1024, null, 0)).toEqual({ sidebar: 0, preview: 510, editor: 509 });
  expect(paneWidths(1024, 260, null)).toEqual({ sidebar: 260, preview: 0, editor: 1024 - 260 - SPLITTER });
  const { sidebar, preview, editor } = paneWidths(1440, 300, 500);
  expect([sidebar, preview]).toEqual([300, 500]);
  expect(sidebar + preview + editor + 2 * SPLITTER).toBe(1440);
});

it("never makes a pane narrower than its least, nor the editor lose its room", () => {
  expect(paneWidths(1024, 20, 20).sidebar).toBe(MIN_SIDEBAR);
  expect(paneWidths(1024, 20, 20).preview).toBe(MIN_PREVIEW);
  const wide = paneWidths(1024, 900, 900);
  expect(wide.editor).toBeGreaterThanOrEqual(MIN_EDITOR);
  expect(wide.sidebar + wide.preview + wide.editor + 2 * SPLITTER).toBe(1024);
});

it("keeps what is dragged, shows and hides panes, and focus mode hides the list but not the choice", async () => {
  const core = new FakeCore();
  const app = fakeApp(core);
  await app.session.start();
  app.layout.drag("sidebar", 320);
  expect(app.layout.widths(1024).sidebar).toBe(320);
  expect(app.api.saveSettings).not.toHaveBeenCalled();
  app.layout.drop(1024);
  expect(app.api.saveSettings).toHaveBeenLastCalledWith({ ...SETTINGS, sidebarWidth: 320 });
  app.layout.togglePreview();
  expect(app.layout.showPreview).toBe(false);
  expect(app.layout.widths(1024).preview).toBe(0);
  app.layout.toggleFocus();
  expect(app.layout.showSidebar).toBe(false);
  expect(app.session.settings?.showSidebar).toBe(true);
  // Ctrl+B in focus mode leaves it, the list back.
  app.layout.toggleSidebar();
  expect(app.layout.focus).toBe(false);
  expect(app.layout.showSidebar).toBe(true);
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApp, postItem, settle } from "./fake-core";
import { pageLanguage } from "./preview.svelte";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

async function withPost() {
  const app = fakeApp();
  app.core.blog.posts = [postItem("posts/a.md", "가")];
  app.core.put("posts/a.md", "---\ntitle: 가\n---\n\n## 들어가며\n\n첫 문단.\n\n## 끝\n");
  await app.session.start();
  await app.posts.openPost("posts/a.md");
  await settle();
  return app;
}

describe("the preview and the editor, both ways", () => {
  it("sends the preview's scroll to the editor, and not the editor's answer back", async () => {
    const app = await withPost();
    app.preview.scrolled(12);
    expect(app.preview.followLine).toBe(12);
    app.preview.previewScrolled(40);
    expect(app.editor.scrolledTo).toEqual([40]);
    // The editor answers the preview's scroll: the preview stays where the author put it.
    app.preview.scrolled(39);
    expect(app.preview.topLine).toBe(39);
    expect(app.preview.followLine).toBe(12);
    // Later, the author scrolls the editor: the preview follows again.
    vi.advanceTimersByTime(1000);
    app.preview.scrolled(5);
    expect(app.preview.followLine).toBe(5);
  });

  it("puts the cursor on the line of a block clicked in the preview", async () => {
    const app = await withPost();
    app.preview.previewClicked(7);
    expect(app.editor.wentTo).toEqual([7]);
  });

  it("gives the outline the page's headings with their lines", async () => {
    const app = await withPost();
    expect(app.preview.current?.outline.map((h) => [h.title, h.line])).toEqual([
      ["들어가며", 5],
      ["끝", 9],
    ]);
  });
});

describe("spelling follows the shown post's language", () => {
  it("tells the editor the page's language when it changes", async () => {
    const app = await withPost();
    expect(app.editor.spelledIn).toEqual(["ko"]);
    app.editor.type("posts/a.md", "---\ntitle: 가\n---\n\n둘째 판.\n");
    await settle();
    expect(app.editor.spelledIn).toEqual(["ko"]);
    // The post says it is English: its page does, and spelling follows.
    app.editor.type("posts/a.md", "---\ntitle: 가\nlang: en\n---\n\nIn English now.\n");
    await settle();
    expect(app.editor.spelledIn).toEqual(["ko", "en"]);
  });

  it("reads the language from the page's html element only", () => {
    expect(pageLanguage('<!doctype html>\n<html lang="ko-KR">\n<head>')).toBe("ko-KR");
    expect(pageLanguage("<html class=x lang='en'><body lang=\"fr\">")).toBe("en");
    expect(pageLanguage("<html lang=en>")).toBe("en");
    expect(pageLanguage('<html><body><p lang="en">')).toBeNull();
    expect(pageLanguage('<html lang="">')).toBeNull();
  });
});

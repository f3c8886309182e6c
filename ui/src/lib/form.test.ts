import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deferred, FakeCore, fakeApp, postItem, settle , EDITOR_SETTINGS } from "./fake-core";
import type { TagItem } from "./types";

const PATH = "posts/a.md";
const TEXT = "---\ntitle: A\ntags: [NCCL]\n---\nHello\n";
const withTags = (tags: string) => TEXT.replace("tags: [NCCL]", `tags: [${tags}]`);
const tag = (name: string, slug = name): TagItem => ({ name, slug, count: 1, draftCount: 0 });

/** `posts/a.md` open with the tag `NCCL`, which the blog lists as `nccl`. */
async function opened() {
  const core = new FakeCore();
  core.put(PATH, TEXT);
  core.blog.posts = [postItem(PATH, "A", ["NCCL"], ["nccl"])];
  core.blog.tags = [tag("nccl"), tag("cuda"), tag("rust")];
  core.startInfo = {
    blog: core.blog,
    recent: [],
    settings: { autosave: false, autosaveDelayMs: 1000, newPostAsBundle: false, ...EDITOR_SETTINGS },
    error: null,
  };
  const app = fakeApp(core);
  await app.session.start();
  await app.posts.openPost(PATH);
  await settle();
  return app;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("tag chips", () => {
  it("do not add a name the core slugs like a tag the post has", async () => {
    const app = await opened();
    expect(app.form.fields?.tags).toEqual(["NCCL"]);
    app.form.addTags(["nccl"]);
    await settle();
    expect(app.api.setField).not.toHaveBeenCalled();
    expect(app.editor.text(PATH)).toBe(TEXT);
    // Both slugs were known from the blog: nothing to ask.
    expect(app.api.tagSlugs).not.toHaveBeenCalled();
  });

  it("add a new name once the core has slugged it, once for names that are one tag", async () => {
    const app = await opened();
    app.form.addTags(["CUDA 12", "cuda  12"]);
    await settle();
    expect(app.api.tagSlugs).toHaveBeenCalledWith(["CUDA 12", "cuda  12"]);
    expect(app.api.setField).toHaveBeenCalledTimes(1);
    expect(app.editor.text(PATH)).toBe(withTags("NCCL, CUDA 12"));
    expect(app.form.fields?.tags).toEqual(["NCCL", "CUDA 12"]);
  });

  it("are in the text a save writes, even while the core is still slugging them", async () => {
    const app = await opened();
    const answer = deferred<string[]>();
    app.api.tagSlugs.mockImplementationOnce(() => answer.promise);
    app.editor.type(PATH, TEXT + "More.\n");
    app.form.addTags(["gpu"]);
    const saving = app.posts.save(PATH);
    await settle();
    expect(app.api.savePost).not.toHaveBeenCalled();

    answer.resolve(["gpu"]);
    expect(await saving).toBe(true);
    expect(app.api.savePost).toHaveBeenCalledTimes(1);
    expect(app.core.file(PATH)?.text).toBe(withTags("NCCL, gpu") + "More.\n");
    expect(app.posts.status?.dirty).toBe(false);
  });

  it("keep a chip removed while an added one waits for its slug", async () => {
    const app = await opened();
    const answer = deferred<string[]>();
    app.api.tagSlugs.mockImplementationOnce(() => answer.promise);
    app.form.addTags(["gpu"]);
    app.form.editField({ key: "tags", value: [] });
    await settle();
    answer.resolve(["gpu"]);
    await settle();
    expect(app.form.fields?.tags).toEqual(["gpu"]);
    expect(app.editor.text(PATH)).toBe(withTags("gpu"));
  });

  it("are compared by name when the core cannot slug them", async () => {
    const app = await opened();
    app.api.tagSlugs.mockRejectedValueOnce({ kind: "io", message: "no answer", path: null });
    app.form.addTags(["gpu", "gpu"]);
    await settle();
    expect(app.editor.text(PATH)).toBe(withTags("NCCL, gpu"));
    expect(app.notices.toasts.map((t) => t.message)).toContain("no answer");
  });
});

describe("tag suggestions", () => {
  it("offer the blog's tags, leaving out the post's own by the core's slugs", async () => {
    const app = await opened();
    expect(app.form.tagSuggestions("n")).toEqual([]);
    expect(app.form.tagSuggestions("c")).toEqual(["cuda"]);

    // A tag typed into the text is slugged by the core once the preview reads it.
    app.editor.type(PATH, withTags("NCCL, Rust"));
    await settle();
    expect(app.api.tagSlugs).toHaveBeenCalledWith(["Rust"]);
    expect(app.form.tagSuggestions("r")).toEqual([]);
  });

  it("forget the core's answers when another blog opens", async () => {
    const app = await opened();
    app.form.addTags(["Rust"]);
    await settle();
    expect(app.form.slugs.slugOf("Rust")).toBe("rust");
    await app.session.open("/other");
    expect(app.form.slugs.slugOf("Rust")).toBeUndefined();
  });
});

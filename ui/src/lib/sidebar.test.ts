import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeCore, fakeApp, postItem, settle } from "./fake-core";
import type { TagItem } from "./types";

const tag = (name: string, slug: string, count = 1): TagItem => ({ name, slug, count, draftCount: 0 });

async function sidebarOf(core: FakeCore) {
  const app = fakeApp(core);
  await app.session.start();
  return app;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the tag filter", () => {
  it("lists the posts whose tags the core slugs as the clicked tag", async () => {
    const core = new FakeCore();
    core.blog.posts = [
      postItem("posts/a.md", "A", ["분산 학습"], ["분산-학습"]),
      postItem("posts/b.md", "B", ["Distributed Training"], ["distributed-training"]),
      // The core decides: a name that looks alike is another tag when its slug differs.
      postItem("posts/c.md", "C", ["분산학습"], ["분산학습"]),
    ];
    core.blog.tags = [tag("분산 학습", "분산-학습"), tag("Distributed Training", "distributed-training")];
    const app = await sidebarOf(core);
    app.sidebar.filterByTag("분산-학습");
    expect(app.sidebar.visiblePosts.map((p) => p.path)).toEqual(["posts/a.md"]);
    app.sidebar.filterByTag(null);
    expect(app.sidebar.visiblePosts).toHaveLength(3);
  });

  it("follows a renamed tag to the slug the core gives its new name, and offers Undo", async () => {
    const core = new FakeCore();
    core.blog.posts = [postItem("posts/a.md", "A", ["GPU"], ["gpu"])];
    core.blog.tags = [tag("GPU", "gpu")];
    core.api.planRetag.mockResolvedValueOnce({
      from: "GPU",
      to: "그래픽 카드",
      toSlug: "the-core-s-slug",
      merge: false,
      files: ["posts/a.md"],
    });
    const app = await sidebarOf(core);
    app.sidebar.filterByTag("gpu");

    const renaming = app.sidebar.renameTag(core.blog.tags[0]);
    await settle();
    expect(app.notices.modal?.input?.value).toBe("GPU");
    app.notices.modal!.resolve("그래픽 카드");
    await settle();
    expect(app.notices.modal?.title).toBe("Rename ‘GPU’ to ‘그래픽 카드’ in 1 file?");
    app.notices.modal!.resolve("");
    await renaming;

    expect(app.api.retag).toHaveBeenCalledWith("GPU", "그래픽 카드");
    expect(app.sidebar.tag).toBe("the-core-s-slug");
    const done = app.notices.toasts.at(-1)!;
    expect(done.message).toBe("Renamed ‘GPU’ to ‘그래픽 카드’ in 1 file.");
    done.action!.run();
    await settle();
    expect(app.api.undoRetag).toHaveBeenCalledWith(7);
    expect(app.notices.toasts.at(-1)?.message).toBe("Put back 1 file.");
  });

  it("leaves the filter alone when another tag was renamed", async () => {
    const core = new FakeCore();
    core.blog.tags = [tag("GPU", "gpu"), tag("nccl", "nccl")];
    core.blog.posts = [postItem("posts/a.md", "A", ["GPU"], ["gpu"])];
    const app = await sidebarOf(core);
    app.sidebar.filterByTag("nccl");
    const renaming = app.sidebar.renameTag(core.blog.tags[0]);
    await settle();
    app.notices.modal!.resolve("cuda");
    await settle();
    app.notices.modal!.resolve("");
    await renaming;
    expect(app.api.retag).toHaveBeenCalled();
    expect(app.sidebar.tag).toBe("nccl");
  });
});

describe("the filter box", () => {
  it("matches titles at once and adds the core's body hits a moment later", async () => {
    const core = new FakeCore();
    core.blog.posts = [postItem("posts/a.md", "RDMA guide"), postItem("posts/b.md", "Notes")];
    core.api.searchText.mockResolvedValue(["posts/b.md"]);
    const app = await sidebarOf(core);
    app.sidebar.setQuery("rdma");
    expect(app.sidebar.visiblePosts.map((p) => p.path)).toEqual(["posts/a.md"]);
    app.sidebar.setQuery("rdma ");
    await vi.advanceTimersByTimeAsync(199);
    expect(app.api.searchText).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(app.api.searchText).toHaveBeenCalledTimes(1);
    expect(app.sidebar.visiblePosts.map((p) => p.path)).toEqual(["posts/a.md", "posts/b.md"]);
  });
});

import { describe, expect, it } from "vitest";
import { postItem } from "./fake-core";
import { applyPostsChange } from "./posts-list";

const list = ["a", "b", "c", "d"].map((n) => postItem(`posts/${n}.md`, n.toUpperCase()));
const paths = (items: { path: string }[]) => items.map((p) => p.path.slice(6, -3)).join("");

describe("the list follows the core's changes", () => {
  it("moves a changed post to its new place", () => {
    const d = { ...postItem("posts/d.md", "D, newer"), date: "2026-08-01" };
    const next = applyPostsChange(list, { all: null, put: [{ at: 0, post: d }], removed: [] });
    expect(paths(next)).toBe("dabc");
    expect(next[0].title).toBe("D, newer");
  });

  it("adds, removes and renames in one change, each at its place", () => {
    const change = {
      all: null,
      put: [
        { at: 1, post: postItem("posts/bb.md", "B") },
        { at: 3, post: postItem("posts/e.md", "E") },
      ],
      removed: ["posts/b.md", "posts/c.md"],
    };
    expect(paths(applyPostsChange(list, change))).toBe("abbde");
  });

  it("takes the whole list when the blog was read again, and keeps the list when nothing moved", () => {
    const all = [postItem("posts/z.md", "Z")];
    expect(applyPostsChange(list, { all, put: [], removed: [] })).toBe(all);
    expect(applyPostsChange(list, { all: null, put: [], removed: [] })).toBe(list);
  });
});

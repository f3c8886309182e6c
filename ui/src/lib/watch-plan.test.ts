import { describe, expect, it } from "vitest";
import type { BlogView, WatchUpdate } from "./types";
import { changed } from "./fake-core";
import { planWatch } from "./watch-plan";

const blog: BlogView = { root: "/b", title: "b", posts: [], tags: [], watch: "watching", locale: "ko-KR", layout: null };
const update = (u: Partial<Extract<WatchUpdate, { kind: "changed" }>>): WatchUpdate => ({ ...changed(blog, {}), ...u });

const open = [
  { path: "posts/clean.md", dirty: false },
  { path: "posts/dirty.md", dirty: true },
];

describe("planWatch", () => {
  it("reloads a clean open post changed elsewhere", () => {
    expect(planWatch(update({ changed: [{ path: "posts/clean.md", external: true }] }), open)).toEqual([
      { kind: "reload", path: "posts/clean.md" },
    ]);
  });

  it("asks about a dirty open post changed elsewhere", () => {
    expect(planWatch(update({ changed: [{ path: "posts/dirty.md", external: true }] }), open)).toEqual([
      { kind: "conflict", path: "posts/dirty.md" },
    ]);
  });

  it("ignores the app's own saves and posts that are not open", () => {
    const u = update({
      changed: [
        { path: "posts/dirty.md", external: false },
        { path: "posts/other.md", external: true },
      ],
    });
    expect(planWatch(u, open)).toEqual([]);
  });

  it("follows a rename, then treats a change under the new name", () => {
    const u = update({
      renamed: [{ from: "posts/dirty.md", to: "posts/moved.md", external: true }],
      changed: [{ path: "posts/moved.md", external: true }],
    });
    expect(planWatch(u, open)).toEqual([
      { kind: "follow", from: "posts/dirty.md", to: "posts/moved.md", external: true },
      { kind: "conflict", path: "posts/moved.md" },
    ]);
  });

  it("keeps a removed open post as gone", () => {
    const removed = [
      { path: "posts/clean.md", external: true },
      { path: "posts/not-open.md", external: true },
    ];
    expect(planWatch(update({ removed }), open)).toEqual([{ kind: "gone", path: "posts/clean.md" }]);
  });

  it("makes nothing of the app's own removal (the author's Delete)", () => {
    expect(planWatch(update({ removed: [{ path: "posts/dirty.md", external: false }] }), open)).toEqual([]);
  });

  it("follows the app's own rename without reading the file again", () => {
    const u = update({ renamed: [{ from: "posts/clean.md", to: "posts/new-slug.md", external: false }] });
    expect(planWatch(u, open)).toEqual([
      { kind: "follow", from: "posts/clean.md", to: "posts/new-slug.md", external: false },
    ]);
  });

  it("treats an open post added back from elsewhere like a change", () => {
    expect(planWatch(update({ added: [{ path: "posts/dirty.md", external: true }] }), open)).toEqual([
      { kind: "conflict", path: "posts/dirty.md" },
    ]);
  });

  it("does nothing for other kinds of update", () => {
    expect(planWatch({ kind: "gone", message: "folder moved" }, open)).toEqual([]);
  });
});

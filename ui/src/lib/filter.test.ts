import { describe, expect, it } from "vitest";
import { filterPosts, quickOpenMatches, queryTerms } from "./filter";
import type { PostItem } from "./types";

// The core's slugs of the tags used here, as `PostItem.tagSlugs` carries them.
const SLUGS: Record<string, string> = { NCCL: "nccl", "분산 학습": "분산-학습" };

function post(path: string, title: string, tags: string[], draft = false): PostItem {
  const tagSlugs = tags.map((t) => SLUGS[t] ?? t);
  return { path, slug: path, title, date: "2026-07-17", tags, tagSlugs, draft, held: null, publishAt: null, hasErrors: false, page: false };
}

const posts = [
  post("posts/torchcomms.md", "PyTorch 2.13의 torchcomms", ["pytorch", "NCCL", "distributed-training"]),
  post("posts/rdma.md", "RDMA 완전 가이드", ["rdma", "nccl"]),
  post("posts/fp8.md", "FP8 training notes", ["fp8", "분산 학습"], true),
  post("posts/rust.md", "Rust async cancellation", ["rust"]),
];
const paths = (list: PostItem[]) => list.map((p) => p.path);
const none = { query: "", tag: null, bodyHits: null };

describe("filterPosts", () => {
  it("lists everything without a filter, in the given order", () => {
    expect(paths(filterPosts(posts, none))).toEqual(paths(posts));
  });

  it("matches titles case-insensitively", () => {
    expect(paths(filterPosts(posts, { ...none, query: "rust" }))).toEqual(["posts/rust.md"]);
    expect(paths(filterPosts(posts, { ...none, query: "PYTORCH" }))).toEqual(["posts/torchcomms.md"]);
  });

  it("matches tags", () => {
    expect(paths(filterPosts(posts, { ...none, query: "nccl" }))).toEqual(["posts/torchcomms.md", "posts/rdma.md"]);
  });

  it("matches Korean, also typed decomposed", () => {
    expect(paths(filterPosts(posts, { ...none, query: "가이드" }))).toEqual(["posts/rdma.md"]);
    expect(paths(filterPosts(posts, { ...none, query: "학습".normalize("NFD") }))).toEqual(["posts/fp8.md"]);
  });

  it("needs every word", () => {
    expect(paths(filterPosts(posts, { ...none, query: "rdma 가이드" }))).toEqual(["posts/rdma.md"]);
    expect(paths(filterPosts(posts, { ...none, query: "rdma rust" }))).toEqual([]);
  });

  it("adds body hits to title and tag hits", () => {
    const bodyHits = new Set(["posts/fp8.md"]);
    expect(paths(filterPosts(posts, { query: "rust", tag: null, bodyHits }))).toEqual(["posts/fp8.md", "posts/rust.md"]);
  });

  it("filters by a clicked tag's slug, drafts included", () => {
    expect(paths(filterPosts(posts, { ...none, tag: "nccl" }))).toEqual(["posts/torchcomms.md", "posts/rdma.md"]);
    expect(paths(filterPosts(posts, { ...none, tag: "분산-학습" }))).toEqual(["posts/fp8.md"]);
  });

  it("combines a tag with the query", () => {
    expect(paths(filterPosts(posts, { ...none, tag: "nccl", query: "가이드" }))).toEqual(["posts/rdma.md"]);
    // A body hit outside the tag stays out.
    const bodyHits = new Set(["posts/rust.md"]);
    expect(paths(filterPosts(posts, { query: "zzz", tag: "nccl", bodyHits }))).toEqual([]);
  });
});

describe("queryTerms", () => {
  it("splits on any whitespace and drops empties", () => {
    expect(queryTerms("  Rust\t 분산  ")).toEqual(["rust", "분산"]);
    expect(queryTerms("   ")).toEqual([]);
  });
});

describe("quickOpenMatches", () => {
  it("puts titles that start with the query first", () => {
    const list = [post("a", "Notes on RDMA", []), post("b", "RDMA guide", [])];
    expect(paths(quickOpenMatches(list, "rdma"))).toEqual(["b", "a"]);
  });

  it("ignores tags", () => {
    expect(paths(quickOpenMatches(posts, "nccl"))).toEqual([]);
  });
});

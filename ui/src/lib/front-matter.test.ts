import { describe, expect, it } from "vitest";
import { findFrontMatterIn, frontMatterKey } from "./front-matter";

describe("findFrontMatterIn", () => {
  it("finds YAML front matter", () => {
    expect(findFrontMatterIn("---\ntitle: 안녕\ntags: [a]\n---\n\nbody")).toEqual({ format: "yaml", fromLine: 1, toLine: 4 });
  });

  it("finds TOML front matter, with a BOM and CRLF", () => {
    expect(findFrontMatterIn("\uFEFF+++\r\ntitle = \"x\"\r\n+++\r\nbody")).toEqual({ format: "toml", fromLine: 1, toLine: 3 });
  });

  it("does not mix the fences", () => {
    expect(findFrontMatterIn("---\ntitle: x\n+++\nbody")).toBeNull();
  });

  it("finds nothing when the block is never closed or absent", () => {
    expect(findFrontMatterIn("---\ntitle: x\nbody")).toBeNull();
    expect(findFrontMatterIn("# Title\n---\n")).toBeNull();
  });
});

describe("frontMatterKey", () => {
  it("finds YAML and TOML keys", () => {
    expect(frontMatterKey("title: 안녕", "yaml")).toEqual([0, 5]);
    expect(frontMatterKey("  draft: true", "yaml")).toEqual([2, 7]);
    expect(frontMatterKey("title = \"x\"", "toml")).toEqual([0, 5]);
  });

  it("skips list items and values", () => {
    expect(frontMatterKey("  - nccl", "yaml")).toBeNull();
    expect(frontMatterKey("[taxonomies]", "toml")).toBeNull();
  });
});

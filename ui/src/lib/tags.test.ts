import { describe, expect, it } from "vitest";
import { addTags, draftNote, isDraftOnly, readTagInput, splitTagInput, tagLabel, tagSuggestions } from "./tags";
import type { TagItem } from "./types";

// What the core's `tag_slugs` answers for the names used here; other names are not known yet.
const SLUGS: Record<string, string> = {
  NCCL: "nccl",
  nccl: "nccl",
  "분산 학습": "분산-학습",
  "분산-학습": "분산-학습",
  Rust: "rust",
  rust: "rust",
  RUST: "rust",
  "!!!": "",
};
const slugOf = (name: string): string | undefined => SLUGS[name];

const tag = (name: string, count: number, draftCount = 0, slug = name): TagItem => ({ name, slug, count, draftCount });

describe("tag labels", () => {
  it("writes name and count like the seed page", () => {
    expect(tagLabel(tag("nccl", 5))).toBe("nccl (5)");
    expect(tagLabel(tag("분산 학습", 2, 0, "분산-학습"))).toBe("분산 학습 (2)");
  });

  it("notes drafts apart from the label", () => {
    expect(tagLabel(tag("fp8", 0, 1))).toBe("fp8 (0)");
    expect(draftNote(tag("fp8", 0, 1))).toBe("1 draft");
    expect(draftNote(tag("rust", 2, 3))).toBe("3 drafts");
    expect(draftNote(tag("nccl", 5))).toBe("");
  });

  it("dims only draft-only tags", () => {
    expect(isDraftOnly(tag("fp8", 0, 1))).toBe(true);
    expect(isDraftOnly(tag("rust", 2, 1))).toBe(false);
  });
});

describe("readTagInput", () => {
  it("keeps typing until a comma", () => {
    expect(readTagInput(["rust"], "asy", false, slugOf)).toEqual({ tags: ["rust"], rest: "asy", changed: false });
  });

  it("adds the part before a comma and keeps the rest", () => {
    expect(readTagInput(["rust"], "async, tok", false, slugOf)).toEqual({ tags: ["rust", "async"], rest: "tok", changed: true });
  });

  it("adds everything on Enter, trimmed", () => {
    expect(readTagInput([], "  분산 학습 ,  nccl  ", true, slugOf)).toEqual({ tags: ["분산 학습", "nccl"], rest: "", changed: true });
  });

  it("treats a full-width comma (Korean keyboards) as a comma", () => {
    expect(readTagInput([], "딥러닝，", false, slugOf).tags).toEqual(["딥러닝"]);
  });

  it("drops duplicates by slug, case-insensitively", () => {
    expect(readTagInput(["NCCL"], "nccl,", false, slugOf)).toEqual({ tags: ["NCCL"], rest: "", changed: false });
    expect(readTagInput(["분산 학습"], "분산-학습", true, slugOf).changed).toBe(false);
    expect(readTagInput([], "Rust, rust, RUST", true, slugOf).tags).toEqual(["Rust"]);
  });

  it("ignores empty parts", () => {
    expect(readTagInput(["a"], " , ,", false, slugOf)).toEqual({ tags: ["a"], rest: "", changed: false });
    expect(readTagInput(["a"], "   ", true, slugOf).changed).toBe(false);
  });

  it("drops a name the core slugs to nothing", () => {
    expect(readTagInput(["a"], "!!!", true, slugOf).changed).toBe(false);
  });

  it("compares by the exact name while a slug is not known", () => {
    expect(addTags(["new tag"], ["new tag", "New Tag"], slugOf)).toEqual({ tags: ["new tag", "New Tag"], changed: true });
    expect(splitTagInput("a, b,  c", false)).toEqual({ names: ["a", "b"], rest: "c" });
  });
});

describe("tagSuggestions", () => {
  const all = [tag("nccl", 5), tag("distributed-training", 4), tag("gpu-infrastructure", 3), tag("cuda", 2)];

  it("suggests prefixes first, then names containing the input", () => {
    expect(tagSuggestions(all, "cu", [], slugOf)).toEqual(["cuda"]);
    expect(tagSuggestions(all, "tr", [], slugOf)).toEqual(["distributed-training", "gpu-infrastructure"]);
  });

  it("leaves out tags the post has", () => {
    expect(tagSuggestions(all, "n", ["NCCL"], slugOf)).not.toContain("nccl");
  });

  it("suggests nothing for an empty input", () => {
    expect(tagSuggestions(all, " ", [], slugOf)).toEqual([]);
  });
});

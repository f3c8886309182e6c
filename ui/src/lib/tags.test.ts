import { describe, expect, it } from "vitest";
import { draftNote, isDraftOnly, readTagInput, tagLabel, tagSuggestions } from "./tags";
import type { TagItem } from "./types";

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
    expect(readTagInput(["rust"], "asy", false)).toEqual({ tags: ["rust"], rest: "asy", changed: false });
  });

  it("adds the part before a comma and keeps the rest", () => {
    expect(readTagInput(["rust"], "async, tok", false)).toEqual({ tags: ["rust", "async"], rest: "tok", changed: true });
  });

  it("adds everything on Enter, trimmed", () => {
    expect(readTagInput([], "  분산 학습 ,  nccl  ", true)).toEqual({ tags: ["분산 학습", "nccl"], rest: "", changed: true });
  });

  it("treats a full-width comma (Korean keyboards) as a comma", () => {
    expect(readTagInput([], "딥러닝，", false).tags).toEqual(["딥러닝"]);
  });

  it("drops duplicates by slug, case-insensitively", () => {
    expect(readTagInput(["NCCL"], "nccl,", false)).toEqual({ tags: ["NCCL"], rest: "", changed: false });
    expect(readTagInput(["분산 학습"], "분산-학습", true).changed).toBe(false);
    expect(readTagInput([], "Rust, rust, RUST", true).tags).toEqual(["Rust"]);
  });

  it("ignores empty parts", () => {
    expect(readTagInput(["a"], " , ,", false)).toEqual({ tags: ["a"], rest: "", changed: false });
    expect(readTagInput(["a"], "   ", true).changed).toBe(false);
  });
});

describe("tagSuggestions", () => {
  const all = [tag("nccl", 5), tag("distributed-training", 4), tag("gpu-infrastructure", 3), tag("cuda", 2)];

  it("suggests prefixes first, then names containing the input", () => {
    expect(tagSuggestions(all, "cu", [])).toEqual(["cuda"]);
    expect(tagSuggestions(all, "tr", [])).toEqual(["distributed-training", "gpu-infrastructure"]);
  });

  it("leaves out tags the post has", () => {
    expect(tagSuggestions(all, "n", ["NCCL"])).not.toContain("nccl");
  });

  it("suggests nothing for an empty input", () => {
    expect(tagSuggestions(all, " ", [])).toEqual([]);
  });
});

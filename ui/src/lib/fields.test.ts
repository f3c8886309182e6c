import { describe, expect, it } from "vitest";
import { fieldEdit } from "./fields";
import type { Fields } from "./types";

const fields: Fields = {
  title: "분산 학습 노트",
  date: "2026-07-17",
  tags: ["nccl", "rust"],
  summary: null,
  draft: false,
  error: null,
};

describe("fieldEdit", () => {
  it("sets a changed title", () => {
    expect(fieldEdit(fields, { key: "title", value: "분산 학습 노트 2" })).toEqual({ key: "title", value: "분산 학습 노트 2" });
  });

  it("makes no call when the text already says it", () => {
    expect(fieldEdit(fields, { key: "title", value: "분산 학습 노트" })).toBeNull();
    expect(fieldEdit(fields, { key: "date", value: "2026-07-17" })).toBeNull();
    expect(fieldEdit(fields, { key: "tags", value: ["nccl", "rust"] })).toBeNull();
    expect(fieldEdit(fields, { key: "draft", value: false })).toBeNull();
    expect(fieldEdit(fields, { key: "summary", value: "" })).toBeNull();
  });

  it("keeps a cleared title in place as an empty string", () => {
    expect(fieldEdit(fields, { key: "title", value: "" })).toEqual({ key: "title", value: "" });
  });

  it("removes a cleared summary and date", () => {
    const withSummary = { ...fields, summary: "요약" };
    expect(fieldEdit(withSummary, { key: "summary", value: "" })).toEqual({ key: "summary", value: null });
    expect(fieldEdit(fields, { key: "date", value: "" })).toEqual({ key: "date", value: null });
  });

  it("ignores a half-typed date", () => {
    expect(fieldEdit(fields, { key: "date", value: "2026-07" })).toBeNull();
    expect(fieldEdit(fields, { key: "date", value: "2026-08-01" })).toEqual({ key: "date", value: "2026-08-01" });
  });

  it("sends the whole tag list when a chip is added, removed or moved", () => {
    expect(fieldEdit(fields, { key: "tags", value: ["nccl", "rust", "cuda"] })).toEqual({
      key: "tags",
      value: ["nccl", "rust", "cuda"],
    });
    expect(fieldEdit(fields, { key: "tags", value: ["rust"] })).toEqual({ key: "tags", value: ["rust"] });
    expect(fieldEdit(fields, { key: "tags", value: ["rust", "nccl"] })).toEqual({ key: "tags", value: ["rust", "nccl"] });
  });

  it("toggles draft", () => {
    expect(fieldEdit(fields, { key: "draft", value: true })).toEqual({ key: "draft", value: true });
  });

  it("makes no call when the front matter cannot be read", () => {
    const broken: Fields = {
      ...fields,
      error: { path: "posts/a.md", line: 2, column: 1, severity: "error", message: "bad YAML", hint: null },
    };
    expect(fieldEdit(broken, { key: "title", value: "New" })).toBeNull();
  });
});

import { expect, it } from "vitest";
import { slugify } from "./slug";

it("slugs like github-slugger", () => {
  expect(slugify("NCCL")).toBe("nccl");
  expect(slugify("Distributed Training")).toBe("distributed-training");
  expect(slugify("분산 학습")).toBe("분산-학습");
  expect(slugify("C++ & Rust")).toBe("c--rust");
  expect(slugify("snake_case")).toBe("snake_case");
  expect(slugify("  padded ")).toBe("padded");
});

it("treats decomposed Hangul like composed", () => {
  const decomposed = "학습".normalize("NFD");
  expect(decomposed).not.toBe("학습");
  expect(slugify(decomposed)).toBe("학습");
});

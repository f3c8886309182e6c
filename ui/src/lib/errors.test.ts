import { expect, it } from "vitest";
import { asAppError, errorText } from "./errors";

it("keeps an AppError as it is", () => {
  const theirs = { path: "posts/a.md", text: "t", version: "v" };
  expect(asAppError({ kind: "conflict", message: "changed", path: "posts/a.md", theirs })).toEqual({
    kind: "conflict",
    message: "changed",
    path: "posts/a.md",
    theirs,
  });
});

it("makes strings and unknown kinds into io errors", () => {
  expect(asAppError("command save_post not found")).toEqual({
    kind: "io",
    message: "command save_post not found",
    path: null,
  });
  expect(asAppError({ kind: "weird", message: "x" }).kind).toBe("io");
  expect(asAppError(new Error("boom")).message).toBe("boom");
});

it("names the file unless the message does", () => {
  expect(errorText({ kind: "io", message: "disk full", path: "posts/a.md" })).toBe("disk full (posts/a.md)");
  expect(errorText({ kind: "io", message: "cannot read posts/a.md", path: "posts/a.md" })).toBe("cannot read posts/a.md");
});

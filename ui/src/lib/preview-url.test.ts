import { describe, expect, it } from "vitest";
import { withLine, withVersion, withoutFragment } from "./preview-url";

describe("withVersion", () => {
  it("adds a query before the fragment", () => {
    expect(withVersion("preview://localhost/posts/a/index.html", 3)).toBe("preview://localhost/posts/a/index.html?v=3");
    expect(withVersion("http://preview.localhost/posts/a/index.html#top", 4)).toBe(
      "http://preview.localhost/posts/a/index.html?v=4#top",
    );
  });

  it("replaces an earlier version and keeps other parameters", () => {
    expect(withVersion("preview://localhost/a.html?v=3", 4)).toBe("preview://localhost/a.html?v=4");
    expect(withVersion("preview://localhost/a.html?x=1&v=3#f", 5)).toBe("preview://localhost/a.html?x=1&v=5#f");
  });
});

describe("withLine", () => {
  it("sets or replaces the line fragment", () => {
    expect(withLine("preview://localhost/a.html?v=2", 12)).toBe("preview://localhost/a.html?v=2#hanji-line-12");
    expect(withLine("preview://localhost/a.html?v=2#hanji-line-3", 40)).toBe(
      "preview://localhost/a.html?v=2#hanji-line-40",
    );
  });

  it("drops the fragment for no line", () => {
    expect(withLine("preview://localhost/a.html#hanji-line-3", null)).toBe("preview://localhost/a.html");
  });
});

it("compares pages without their fragment", () => {
  expect(withoutFragment("p://x/a.html?v=1#hanji-line-2")).toBe(withoutFragment("p://x/a.html?v=1#hanji-line-9"));
});

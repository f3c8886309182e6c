import { describe, expect, it } from "vitest";
import { withVersion } from "./preview-url";

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

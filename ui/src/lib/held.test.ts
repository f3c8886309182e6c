import { describe, expect, it } from "vitest";

import { heldBadge } from "./held";

describe("heldBadge", () => {
  it("says when a scheduled post is published", () => {
    expect(heldBadge(false, { held: "scheduled", publishAt: "2026-12-24 09:00 KST" })).toBe(
      "scheduled for 2026-12-24 09:00 KST",
    );
  });

  it("names posts held for good, and drafts first", () => {
    expect(heldBadge(false, { held: "expired", publishAt: null })).toBe("expired");
    expect(heldBadge(false, { held: "unpublished", publishAt: null })).toBe("unpublished");
    expect(heldBadge(true, { held: "scheduled", publishAt: "2026-12-24 09:00 KST" })).toBe("draft");
  });

  it("says nothing of a published post", () => {
    expect(heldBadge(false, { held: null, publishAt: null })).toBeNull();
    expect(heldBadge(false, undefined)).toBeNull();
  });
});

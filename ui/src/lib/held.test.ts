import { describe, expect, it } from "vitest";

import { heldBadge } from "./held";
import { en } from "./i18n/en";

describe("heldBadge", () => {
  it("says when a scheduled post is published", () => {
    expect(heldBadge(false, { held: "scheduled", publishAt: "2026-12-24 09:00 KST" }, en)).toBe(
      "scheduled for 2026-12-24 09:00 KST",
    );
  });

  it("names posts held for good, and drafts first", () => {
    expect(heldBadge(false, { held: "expired", publishAt: null }, en)).toBe("expired");
    expect(heldBadge(false, { held: "unpublished", publishAt: null }, en)).toBe("unpublished");
    expect(heldBadge(true, { held: "scheduled", publishAt: "2026-12-24 09:00 KST" }, en)).toBe("draft");
  });

  it("says nothing of a published post", () => {
    expect(heldBadge(false, { held: null, publishAt: null }, en)).toBeNull();
    expect(heldBadge(false, undefined, en)).toBeNull();
  });
});

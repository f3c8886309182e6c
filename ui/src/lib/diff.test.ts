import { describe, expect, it } from "vitest";
import { applyChange, minimalChange } from "./diff";

function roundTrip(before: string, after: string) {
  const change = minimalChange(before, after);
  expect(applyChange(before, change)).toBe(after);
  return change;
}

describe("minimalChange", () => {
  it("is null for equal texts", () => {
    expect(minimalChange("같은 글", "같은 글")).toBeNull();
  });

  it("replaces only the changed middle", () => {
    const before = "---\ntitle: Old\n---\nbody\n";
    const after = "---\ntitle: New title\n---\nbody\n";
    expect(roundTrip(before, after)).toEqual({ from: 11, to: 14, insert: "New title" });
  });

  it("handles pure insertions and deletions", () => {
    expect(roundTrip("abc", "abXc")).toEqual({ from: 2, to: 2, insert: "X" });
    expect(roundTrip("abXc", "abc")).toEqual({ from: 2, to: 3, insert: "" });
    expect(roundTrip("", "new")).toEqual({ from: 0, to: 0, insert: "new" });
    expect(roundTrip("old", "")).toEqual({ from: 0, to: 3, insert: "" });
  });

  it("does not let prefix and suffix overlap on repeated text", () => {
    // "aaa" → "aaaa": the overlap must not make `to` smaller than `from`.
    const change = roundTrip("aaa", "aaaa");
    expect(change!.to).toBeGreaterThanOrEqual(change!.from);
    expect(change!.insert).toBe("a");
  });

  it("counts Korean in UTF-16 code units, as CodeMirror does", () => {
    const before = "제목: 분산 학습\n본문";
    const after = "제목: 분산 딥러닝 학습\n본문";
    const change = roundTrip(before, after);
    expect(change).toEqual({ from: 7, to: 7, insert: "딥러닝 " });
  });

  it("never splits an emoji's surrogate pair", () => {
    // 😀 is U+1F600 (D83D DE00), 😁 is U+1F601 (D83D DE01): same high half.
    const change = roundTrip("a😀b", "a😁b");
    expect(change).toEqual({ from: 1, to: 3, insert: "😁" });
    expect(change!.insert.length).toBe(2);
  });

  it("keeps surrogate pairs whole at the suffix side", () => {
    // 🙂 is U+1F642 (D83D DE42); 😂 is U+1F602 (D83D DE02): same high, different low.
    // And a shared low half: U+1F642 vs U+1F442 (D83D DC42) differ in the low half only too;
    // U+1F642 vs U+1FA42 would share the low half 0xDE42 with a different high half.
    const a = "x\u{1F642}y";
    const b = "x\u{1FA42}y";
    const change = roundTrip(a, b);
    expect(change!.from).toBe(1);
    expect(change!.to).toBe(3);
    expect(change!.insert).toBe("\u{1FA42}");
  });

  it("works when the whole text is replaced", () => {
    expect(roundTrip("가나다", "라마바")).toEqual({ from: 0, to: 3, insert: "라마바" });
  });
});

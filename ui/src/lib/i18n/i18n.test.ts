import { describe, expect, it } from "vitest";
import { en } from "./en";
import { CATALOGUES, I18n, languageOf } from "./index.svelte";
import { ko } from "./ko";

/** Every word's place (`status.saved`) and what it is: text, or a function of so many values. */
function shape(words: object, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(words)) {
    const place = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "object" && value !== null) {
      for (const [k, v] of shape(value, place)) found.set(k, v);
    } else {
      found.set(place, typeof value === "function" ? `function of ${value.length}` : typeof value);
    }
  }
  return found;
}

/** A value that serves as any argument: a count, a text, a number formatter. */
const sample = Object.assign((x: unknown) => String(x), { toString: () => "2", valueOf: () => 2 });

/** Every word as text, functions given sample values. */
function texts(words: object): string[] {
  return Object.values(words).flatMap((value) => {
    if (typeof value === "object" && value !== null) return texts(value);
    if (typeof value === "function") return [String(value(...Array.from({ length: value.length }, () => sample)))];
    return [String(value)];
  });
}

describe("the catalogues", () => {
  it("have every word of the English one, of the same kind", () => {
    const english = shape(en);
    expect(english.size).toBeGreaterThan(200);
    for (const [name, words] of Object.entries(CATALOGUES)) {
      expect(shape(words), name).toEqual(english);
    }
  });

  it("leave no word empty, and the Korean one is in Korean", () => {
    for (const words of Object.values(CATALOGUES)) {
      for (const text of texts(words)) expect(text.trim().length).toBeGreaterThan(0);
    }
    const korean = texts(ko);
    const hangul = korean.filter((text) => /[\uac00-\ud7a3]/.test(text));
    // Names (RSS, Vim, git's pull) may stay as they are; nearly every word is Korean.
    expect(hangul.length / korean.length).toBeGreaterThan(0.9);
  });
});

describe("the window's language and locale", () => {
  it("follows the setting, else the system; a language without a catalogue is English", () => {
    expect(languageOf("ko-KR")).toBe("ko");
    expect(languageOf("en_GB")).toBe("en");
    expect(languageOf("ja")).toBe("en");
    const i18n = new I18n();
    i18n.preference = "ko";
    expect(i18n.t.status.saved).toBe("저장됨");
    i18n.preference = "en";
    expect(i18n.t.status.saved).toBe("Saved");
  });

  it("writes dates and numbers in the blog's locale, the calendar day as written", () => {
    const i18n = new I18n();
    i18n.preference = "en";
    i18n.locale = "ko-KR";
    expect(i18n.date("2026-07-17")).toBe("2026. 7. 17.");
    expect(i18n.number(10000)).toBe("10,000");
    i18n.locale = "en-US";
    expect(i18n.date("2026-07-17")).toBe("Jul 17, 2026");
    i18n.locale = "de-DE";
    expect(i18n.number(10000)).toBe("10.000");
    expect(i18n.date("not a date")).toBe("not a date");
  });
});

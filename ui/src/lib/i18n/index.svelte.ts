//! The language the window speaks and the locale it writes dates and numbers
//! in: the words come from one catalogue per language (`en.ts`, `ko.ts`), the
//! language from the settings (the system's by default); dates and numbers
//! follow the open blog's locale (`ko-KR`: `2026. 7. 17.`), the system's when
//! no blog is open.

import { en, type Words } from "./en";
import { ko } from "./ko";

export const CATALOGUES = { en, ko } satisfies Record<string, Words>;

export type Language = keyof typeof CATALOGUES;

/** The catalogue for a language tag (`ko-KR`, `en`), English for one Hanji has none for. */
export function languageOf(tag: string | null | undefined): Language {
  const base = (tag ?? "").toLowerCase().split(/[-_]/)[0];
  return base in CATALOGUES ? (base as Language) : "en";
}

/** The system's language, as the webview reports it. */
export function systemLanguage(): Language {
  const tags = typeof navigator === "undefined" ? [] : [...(navigator.languages ?? []), navigator.language];
  // The first the user prefers that Hanji speaks.
  const spoken = tags.find((tag) => tag && (tag.toLowerCase().split(/[-_]/)[0] in CATALOGUES));
  return languageOf(spoken);
}

export class I18n {
  /** The setting: a language, or "" for the system's. */
  preference = $state("");
  /** The open blog's locale; "" when none is open. */
  locale = $state("");

  readonly language = $derived<Language>(this.preference ? languageOf(this.preference) : systemLanguage());
  /** The words of the window's language. */
  readonly t = $derived<Words>(CATALOGUES[this.language]);

  private readonly numbers = $derived(new Intl.NumberFormat(this.dateLocale()));

  /** The locale dates and numbers are written in: the blog's, else the window's language's. */
  dateLocale(): string {
    if (this.locale) return this.locale;
    return this.language === "ko" ? "ko-KR" : "en-US";
  }

  /** `1,234`. */
  number = (n: number): string => this.numbers.format(n);

  /** A calendar date `2026-07-17` as the locale writes it: `2026. 7. 17.`, `Jul 17, 2026`. */
  date = (iso: string): string => {
    const [y, m, d] = iso.split("-").map(Number);
    if (!y || !m || !d) return iso;
    // Noon UTC, shown in UTC: the calendar day as written, in every time zone.
    const day = new Date(Date.UTC(y, m - 1, d, 12));
    return new Intl.DateTimeFormat(this.dateLocale(), { dateStyle: "medium", timeZone: "UTC" }).format(day);
  };

  /** A moment (milliseconds since 1970) as the locale writes it, with the time. */
  moment = (ms: number): string =>
    new Intl.DateTimeFormat(this.dateLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}

/** The window's one language and locale. */
export const i18n = new I18n();

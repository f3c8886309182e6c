//! The front matter form and the text are one truth: the form shows the fields
//! the core read from the text, and an edit in the form becomes one `setField`
//! call. This module decides which call, if any.

import type { FieldKey, FieldValue, Fields } from "./types";

/** What a form control reports, in the control's own terms. */
export type FormInput =
  | { key: "title"; value: string }
  | { key: "summary"; value: string }
  /** `""` when the date input is cleared. */
  | { key: "date"; value: string }
  | { key: "tags"; value: string[] }
  | { key: "draft"; value: boolean };

export interface FieldEdit {
  key: FieldKey;
  value: FieldValue;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The `setField(text, key, value)` to make for a form edit, or null when the
 * text already says it (or the front matter cannot be read: the form is then
 * read-only).
 *
 * A cleared title stays as `title: ""` so that retyping it keeps its place in the
 * front matter; a cleared summary or date is removed (the post then uses its
 * first paragraph, or no date).
 */
export function fieldEdit(fields: Fields, input: FormInput): FieldEdit | null {
  if (fields.error) return null;
  switch (input.key) {
    case "title":
      if (input.value === (fields.title ?? "")) return null;
      return { key: "title", value: input.value };
    case "summary": {
      if (input.value === (fields.summary ?? "")) return null;
      return { key: "summary", value: input.value === "" ? null : input.value };
    }
    case "date": {
      const value = input.value === "" ? null : input.value;
      if (value !== null && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
      if (value === fields.date) return null;
      return { key: "date", value };
    }
    case "tags":
      if (sameList(input.value, fields.tags)) return null;
      return { key: "tags", value: [...input.value] };
    case "draft":
      if (input.value === fields.draft) return null;
      return { key: "draft", value: input.value };
  }
}

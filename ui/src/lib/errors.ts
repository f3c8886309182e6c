//! Every command rejects with an `AppError`; anything else that reaches the UI
//! (a panic message, a missing command) is made into one so it can be shown.

import type { AppError, ErrorKind } from "./types";

const KINDS: ErrorKind[] = [
  "outside_blog",
  "conflict",
  "not_found",
  "exists",
  "io",
  "invalid",
  "no_blog",
  "front_matter",
  "publish",
];

export function asAppError(error: unknown): AppError {
  if (typeof error === "object" && error !== null && "message" in error) {
    const e = error as Partial<AppError> & { message: unknown };
    const kind = KINDS.includes(e.kind as ErrorKind) ? (e.kind as ErrorKind) : "io";
    return {
      kind,
      message: String(e.message),
      path: typeof e.path === "string" ? e.path : null,
      ...(e.theirs ? { theirs: e.theirs } : {}),
      ...(typeof e.hint === "string" ? { hint: e.hint } : {}),
      ...(e.fault ? { fault: e.fault } : {}),
    };
  }
  return { kind: "io", message: String(error), path: null };
}

/** The line a notice shows: the message, and the file when the message does not name it. */
export function errorText(error: AppError): string {
  if (error.path && !error.message.includes(error.path)) return `${error.message} (${error.path})`;
  return error.message;
}

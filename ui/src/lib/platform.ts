//! Which keys mean "command" here: Cmd on a Mac, Ctrl elsewhere.

export const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.userAgent);

//! Timestamps along a keystroke's way to the preview, for the end-to-end
//! latency measure: when the page has an array in `window.__hanjiTrace` (the
//! test puts one there), each stage adds `[stage, performance.now()]` to it;
//! otherwise marking does nothing.

type Trace = [string, number][];

export function mark(stage: string): void {
  const trace = (globalThis as { __hanjiTrace?: Trace }).__hanjiTrace;
  if (trace) trace.push([stage, performance.now()]);
}

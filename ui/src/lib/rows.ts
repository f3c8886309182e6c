//! A long list drawn a window at a time: which rows of fixed height are in
//! view of a scrolled box, with a few more on each side so that scrolling
//! never shows a gap. The sidebar's list of posts is drawn so, whatever the
//! number of posts.

/** The height of one row of the post list, in CSS pixels (its stylesheet holds rows to it). */
export const ROW_HEIGHT = 50;

/** Rows drawn beyond each edge of the view. */
const OVERSCAN = 8;

/** The rows `[first, end)` to draw for a box `height` tall scrolled to `scrollTop`, of `count` rows. */
export function rowsInView(scrollTop: number, height: number, count: number, rowHeight = ROW_HEIGHT) {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  // Before the box is measured, as many as a tall window shows.
  const shown = Math.ceil((height > 0 ? height : 1200) / rowHeight);
  const end = Math.min(count, Math.floor(scrollTop / rowHeight) + shown + 1 + OVERSCAN);
  return { first: Math.min(first, end), end };
}

//! How the window is shared out: the list of posts, the editor and the
//! preview, each pane's width (dragged, and kept in the settings), which of
//! the list and the preview are shown, and focus mode (only the text, and the
//! preview if it is shown). The editor takes what the others leave.

import type { Session } from "./session.svelte";

/** The narrowest each pane is made, in pixels. */
export const MIN_SIDEBAR = 180;
export const MIN_EDITOR = 320;
export const MIN_PREVIEW = 260;
/** A splitter's width. */
export const SPLITTER = 5;

export type Pane = "sidebar" | "preview";

/**
 * The widths of the list and the preview in a window `total` pixels wide
 * (the list left out when `sidebar` is null, the preview when `preview` is),
 * each as asked (a preview of 0: half of the room beside the list) but
 * narrowed so that the editor keeps `MIN_EDITOR`, and never under its own
 * least width while there is room for it.
 */
export function paneWidths(
  total: number,
  sidebar: number | null,
  preview: number | null,
): { sidebar: number; preview: number; editor: number } {
  let side = sidebar === null ? 0 : Math.max(MIN_SIDEBAR, sidebar);
  const splitters = (sidebar === null ? 0 : SPLITTER) + (preview === null ? 0 : SPLITTER);
  side = Math.min(side, Math.max(sidebar === null ? 0 : MIN_SIDEBAR, total - splitters - MIN_EDITOR - (preview === null ? 0 : MIN_PREVIEW)));
  const room = total - side - splitters;
  let view = preview === null ? 0 : preview === 0 ? Math.round(room / 2) : Math.max(MIN_PREVIEW, preview);
  if (preview !== null) view = Math.min(view, Math.max(MIN_PREVIEW, room - MIN_EDITOR));
  return { sidebar: side, preview: view, editor: Math.max(0, room - view) };
}

export class Layout {
  /** Only the text (and the preview, if shown). */
  focus = $state(false);
  /** A pane being dragged, and its width so far (kept when the drag ends). */
  dragging = $state.raw<{ pane: Pane; width: number } | null>(null);

  constructor(private readonly session: Pick<Session, "settings" | "updateSettings">) {}

  get showSidebar(): boolean {
    return !this.focus && (this.session.settings?.showSidebar ?? true);
  }

  get showPreview(): boolean {
    return this.session.settings?.showPreview ?? true;
  }

  /** The width asked for `pane` (while dragged, the drag's). */
  asked(pane: Pane): number {
    if (this.dragging?.pane === pane) return this.dragging.width;
    const settings = this.session.settings;
    if (pane === "sidebar") return settings?.sidebarWidth ?? 260;
    return settings?.previewWidth ?? 0;
  }

  /** The widths of the panes in a window `total` pixels wide. */
  widths(total: number): { sidebar: number; preview: number; editor: number } {
    return paneWidths(
      total,
      this.showSidebar ? this.asked("sidebar") : null,
      this.showPreview ? this.asked("preview") : null,
    );
  }

  toggleSidebar(): void {
    if (this.focus) this.focus = false;
    else void this.session.updateSettings({ showSidebar: !this.showSidebar });
  }

  togglePreview(): void {
    void this.session.updateSettings({ showPreview: !this.showPreview });
  }

  toggleFocus(): void {
    this.focus = !this.focus;
  }

  /** A splitter moved `pane` to `width` (not kept until `drop`). */
  drag(pane: Pane, width: number): void {
    this.dragging = { pane, width: Math.round(width) };
  }

  /** The drag is over: the width is kept (as shown, within the window of `total` pixels). */
  drop(total: number): void {
    const drag = this.dragging;
    if (!drag) return;
    const shown = this.widths(total);
    this.dragging = null;
    if (drag.pane === "sidebar") void this.session.updateSettings({ sidebarWidth: shown.sidebar });
    else void this.session.updateSettings({ previewWidth: shown.preview });
  }
}

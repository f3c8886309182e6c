//! Which panel or popover is open over the window (one at a time).

export type Panel = "problems" | "help" | "quickOpen" | "settings" | "blogMenu" | "newBlog" | "importBlog";

export class Panels {
  shown = $state<Panel | null>(null);

  /** Opens `panel`, or closes it when it is the one open. */
  toggle(panel: Panel): void {
    this.shown = this.shown === panel ? null : panel;
  }

  close(): void {
    this.shown = null;
  }
}

//! Exporting the blog as a site from the app: saving first, the progress, and
//! the summary the dialog shows.

import type * as api from "./api";
import type { Notices } from "./notices.svelte";
import type { OpenPosts } from "./posts.svelte";
import type { Session } from "./session.svelte";
import type { ExportSummary } from "./types";

export type ExportApi = Pick<typeof api, "exportBlog" | "showFolder">;

export type ExportState =
  | { phase: "running"; done: number; total: number }
  | { phase: "done"; summary: ExportSummary };

export class SiteExport {
  /** The export running or just done, for the dialog; null when there is none. */
  state = $state.raw<ExportState | null>(null);

  constructor(
    private readonly api: ExportApi,
    private readonly session: Pick<Session, "blog">,
    private readonly posts: Pick<OpenPosts, "saveAll">,
    private readonly notices: Notices,
  ) {}

  /** Saves, asks for a folder (the core's dialog), exports into it. */
  async run(): Promise<void> {
    if (!this.session.blog || this.state?.phase === "running") return;
    // The export reads the files: write what the author sees first.
    await this.posts.saveAll();
    this.state = { phase: "running", done: 0, total: 0 };
    try {
      const summary = await this.api.exportBlog(null, (p) => {
        if (this.state?.phase === "running") this.state = { phase: "running", done: p.done, total: p.total };
      });
      this.state = summary ? { phase: "done", summary } : null;
    } catch (error) {
      this.state = null;
      this.notices.notifyError(error);
    }
  }

  close(): void {
    this.state = null;
  }

  async showFolder(path: string): Promise<void> {
    try {
      await this.api.showFolder(path);
    } catch (error) {
      this.notices.notifyError(error);
    }
  }
}

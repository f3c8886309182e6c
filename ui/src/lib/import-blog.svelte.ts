//! The Import dialog: a hosted blog's export (a file chosen with the
//! system's dialog, or `velog:@you` typed), the new folder it goes to (the
//! core names it, in the user's documents or a folder the author picks),
//! the import itself, and its report: how many of each kind came over, and
//! every item that did not come over exactly. The core does the work.

import type * as api from "./api";
import { asAppError } from "./errors";
import type { Panels } from "./panels.svelte";
import type { Session } from "./session.svelte";
import type { AppError, ImportReport } from "./types";

export type ImportApi = Pick<typeof api, "chooseExport" | "importFolder" | "chooseFolder" | "importBlog">;

export class ImportForm {
  /** The export's path, or `velog:@you`. */
  source = $state("");
  /** The folder chosen to make the blog in; null for the user's documents. */
  parent = $state<string | null>(null);
  /** Where the blog will be made, as the core names it. */
  folder = $state("");
  busy = $state(false);
  /** How a Velog import is going (`velog: 40/120 posts fetched`). */
  step = $state("");
  /** The report of the import just done. */
  report = $state<ImportReport | null>(null);
  /** Why the import did not happen, with what to do (`hint`). */
  error = $state<AppError | null>(null);

  private asked = 0;

  constructor(
    private readonly api: ImportApi,
    private readonly session: Pick<Session, "importBlog">,
    private readonly panels: Pick<Panels, "shown" | "close">,
  ) {}

  open(): void {
    this.source = "";
    this.parent = null;
    this.folder = "";
    this.step = "";
    this.report = null;
    this.error = null;
    this.panels.shown = "importBlog";
  }

  setSource(source: string): void {
    this.source = source;
    this.error = null;
    void this.place();
  }

  /** The export, from the system's file dialog. */
  async chooseExport(): Promise<void> {
    try {
      const chosen = await this.api.chooseExport();
      if (chosen) this.setSource(chosen);
    } catch (error) {
      this.error = asAppError(error);
    }
  }

  async chooseParent(): Promise<void> {
    try {
      const chosen = await this.api.chooseFolder();
      if (chosen) {
        this.parent = chosen;
        await this.place();
      }
    } catch (error) {
      this.error = asAppError(error);
    }
  }

  /** Asks the core where an import of this source goes (the last answer wins). */
  async place(): Promise<void> {
    const asked = ++this.asked;
    if (!this.source.trim()) {
      this.folder = "";
      return;
    }
    try {
      const folder = await this.api.importFolder(this.source.trim(), this.parent);
      if (asked === this.asked) this.folder = folder;
    } catch (error) {
      if (asked === this.asked) this.error = asAppError(error);
    }
  }

  /** Imports, opens the new blog and keeps the report to show; an error stays in the dialog. */
  async run(): Promise<void> {
    if (!this.source.trim() || this.busy) return;
    this.busy = true;
    this.error = null;
    this.step = "";
    try {
      await this.place();
      if (!this.folder) return;
      this.report = await this.session.importBlog({ source: this.source.trim(), folder: this.folder }, (step) => (this.step = step));
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.busy = false;
    }
  }

  close(): void {
    this.panels.close();
  }
}

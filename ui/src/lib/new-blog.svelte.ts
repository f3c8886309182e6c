//! The New blog dialog: what it asks (title, language, author), where the
//! blog goes (a new folder named for its title in the user's documents, or in
//! a folder the author picks; the core names it), and making and opening it.

import type * as api from "./api";
import { i18n } from "./i18n/index.svelte";
import type { Notices } from "./notices.svelte";
import type { Panels } from "./panels.svelte";
import type { Session } from "./session.svelte";

export type NewBlogApi = Pick<typeof api, "newBlogFolder" | "chooseFolder">;

export class NewBlogForm {
  title = $state("");
  /** `ko-KR` or `en-US`: the window's language to start with. */
  locale = $state("en-US");
  author = $state("");
  /** The folder chosen to make it in; null for the user's documents. */
  parent = $state<string | null>(null);
  /** Where the blog will be made, as the core names it. */
  folder = $state("");
  busy = $state(false);

  private asked = 0;

  constructor(
    private readonly api: NewBlogApi,
    private readonly session: Pick<Session, "newBlog">,
    private readonly panels: Pick<Panels, "shown" | "close">,
    private readonly notices: Notices,
  ) {}

  open(): void {
    this.title = "";
    this.author = "";
    this.parent = null;
    this.locale = i18n.language === "ko" ? "ko-KR" : "en-US";
    this.panels.shown = "newBlog";
    void this.place();
  }

  setTitle(title: string): void {
    this.title = title;
    void this.place();
  }

  async chooseParent(): Promise<void> {
    try {
      const chosen = await this.api.chooseFolder();
      if (chosen) {
        this.parent = chosen;
        await this.place();
      }
    } catch (error) {
      this.notices.notifyError(error);
    }
  }

  /** Asks the core where a blog of this title goes (the last answer wins). */
  async place(): Promise<void> {
    const asked = ++this.asked;
    try {
      const folder = await this.api.newBlogFolder(this.title.trim() || i18n.t.newBlog.blogTitlePlaceholder, this.parent);
      if (asked === this.asked) this.folder = folder;
    } catch (error) {
      if (asked === this.asked) this.notices.notifyError(error);
    }
  }

  async make(): Promise<void> {
    if (!this.title.trim() || this.busy) return;
    this.busy = true;
    try {
      await this.place();
      const made = await this.session.newBlog({
        title: this.title.trim(),
        locale: this.locale,
        author: this.author.trim(),
        folder: this.folder,
      });
      if (made) {
        this.panels.close();
        this.notices.notify(i18n.t.notices.blogMade(this.folder));
      }
    } finally {
      this.busy = false;
    }
  }
}

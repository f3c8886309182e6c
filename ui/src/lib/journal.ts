//! The journal's side in the UI: when a blog opens, unsaved text kept from
//! before the app last closed without saving (a crash, a kill) is offered back,
//! or thrown away if the author says no.

import { i18n } from "./i18n/index.svelte";
import type * as api from "./api";
import type { Notices } from "./notices.svelte";
import type { OpenPosts } from "./posts.svelte";
import type { Session } from "./session.svelte";
import type { Recovered } from "./types";

export type JournalApi = Pick<typeof api, "recovered" | "discardRecovered">;

export class Journal {
  constructor(
    private readonly api: JournalApi,
    session: Pick<Session, "listen">,
    private readonly posts: Pick<OpenPosts, "restore">,
    private readonly notices: Notices,
  ) {
    session.listen({ opened: () => this.offer() });
  }

  /** Asks whether to restore what the journal kept for the open blog; does as told. */
  async offer(): Promise<void> {
    let pending: Recovered[];
    try {
      pending = await this.api.recovered();
    } catch (error) {
      this.notices.notifyError(error);
      return;
    }
    if (pending.length === 0) return;
    const answer = await this.notices.ask({
      title: i18n.t.modal.restoreTitle,
      message: i18n.t.modal.restoreMessage,
      list: pending.map((kept) => kept.path),
      ok: i18n.t.modal.restore,
    });
    if (answer === null) {
      for (const kept of pending) {
        await this.api.discardRecovered(kept.path).catch((error) => this.notices.notifyError(error));
      }
      return;
    }
    for (const kept of pending) await this.posts.restore(kept);
  }
}

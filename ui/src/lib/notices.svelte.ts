//! What the app tells and asks the author: toasts (notices and errors), the
//! one question at a time in the modal (every other store reports and asks
//! through `Notices`), and the problems of the blog (the core's check, which
//! has the unsaved texts in it).

import { asAppError, errorText } from "./errors";
import { i18n } from "./i18n/index.svelte";
import type { Panels } from "./panels.svelte";
import type { OpenPosts } from "./posts.svelte";
import type { Session } from "./session.svelte";
import type { Diagnostic } from "./types";

export interface Toast {
  id: number;
  message: string;
  kind: "info" | "error";
  action?: { label: string; run: () => void };
}

/** A question in the modal: with `input` it asks for text, else it asks to confirm. */
export interface ModalRequest {
  title: string;
  message?: string;
  input?: { value: string; placeholder?: string; label?: string };
  /** Files or posts the question is about. */
  list?: string[];
  ok: string;
  danger?: boolean;
  /** The text typed ("" for a confirmation), or null when cancelled. */
  resolve: (answer: string | null) => void;
}

const INFO_TOAST_MS = 6000;
const ACTION_TOAST_MS = 12000;

export class Notices {
  toasts = $state.raw<Toast[]>([]);
  /** The question the modal shows, if any. */
  modal = $state.raw<ModalRequest | null>(null);

  private toastId = 0;

  /** Info toasts go away by themselves (later when they offer an action); errors stay until dismissed. */
  notify(message: string, kind: Toast["kind"] = "info", action?: Toast["action"]): void {
    const id = ++this.toastId;
    this.toasts = [...this.toasts, { id, message, kind, ...(action ? { action } : {}) }];
    if (kind === "info") setTimeout(() => this.dismiss(id), action ? ACTION_TOAST_MS : INFO_TOAST_MS);
  }

  /** Any rejection of a command, as an error toast. */
  notifyError(error: unknown): void {
    this.notify(errorText(asAppError(error)), "error");
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  /** Asks in the modal; resolves with the answer, or null when cancelled (or asked over). */
  ask(request: Omit<ModalRequest, "resolve">): Promise<string | null> {
    this.modal?.resolve(null);
    return new Promise((resolve) => {
      this.modal = {
        ...request,
        resolve: (answer) => {
          this.modal = null;
          resolve(answer);
        },
      };
    });
  }
}

/**
 * The problems the status bar counts and the panel lists: the whole blog's,
 * exactly the set `hanji check` prints, as the core last checked it (the
 * open posts' unsaved texts in). The core checks again after each change,
 * only what the change touched.
 */
export class Problems {
  list = $derived.by(() => this.session.problems ?? []);
  /** Until the blog's first check is done. */
  checking = $derived.by(() => this.session.blog !== null && this.session.problems === null);

  constructor(
    private readonly session: Pick<Session, "blog" | "problems">,
    private readonly posts: Pick<OpenPosts, "current" | "isOpen" | "openPost" | "goToLine">,
    private readonly panels: Pick<Panels, "close">,
    private readonly notices: Notices,
  ) {}

  /** Opens the post at the problem's line; a file that is not a post is for another editor. */
  async goTo(problem: Diagnostic): Promise<void> {
    const isPost = this.posts.isOpen(problem.path) || this.session.blog?.posts.some((p) => p.path === problem.path);
    if (!isPost) {
      this.notices.notify(i18n.t.problems.notAPost(problem.path));
      return;
    }
    this.panels.close();
    await this.posts.openPost(problem.path);
    this.posts.goToLine(problem.path, problem.line);
  }
}

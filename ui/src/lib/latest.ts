//! Runs an async job with at most one call in flight, and always ends with a
//! call on the newest input: a burst of edits makes one preview request now
//! and one for the latest text afterwards, never a queue of stale ones.

export class Latest<I, O> {
  private running = false;
  private pending: { input: I } | null = null;

  constructor(
    private readonly job: (input: I) => Promise<O>,
    private readonly done: (input: I, output: O) => void,
    private readonly failed: (input: I, error: unknown) => void = () => {},
  ) {}

  /** Asks for a run on `input`; while one runs, only the last input asked for is kept. */
  request(input: I): void {
    this.pending = { input };
    if (!this.running) void this.drain();
  }

  /** Forgets a waiting input (the post was closed). */
  cancel(): void {
    this.pending = null;
  }

  get busy(): boolean {
    return this.running;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending) {
        const { input } = this.pending;
        this.pending = null;
        try {
          this.done(input, await this.job(input));
        } catch (error) {
          this.failed(input, error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

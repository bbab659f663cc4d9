export type SaveStatus =
  | { state: 'saved' }
  /** Edited; the save waits for the typing to pause. */
  | { state: 'pending' }
  | { state: 'saving' }
  | { state: 'failed'; message: string };

interface SaveQueueOptions<T, R> {
  initial: T;
  delayMs: number;
  save: (value: T) => Promise<R>;
  /**
   * A save answered: `sent` is what was sent, `latest` the value now (it may be newer). Answers
   * the value to keep (e.g. with what the server added), which needs no save of its own.
   */
  onSaved: (sent: T, result: R, latest: T) => T;
  onStatus: (status: SaveStatus) => void;
  /** The message of a failed save. */
  describe: (error: unknown) => string;
}

/**
 * Saves the latest value of something edited: `change` waits `delayMs` for the edits to pause,
 * one save is in flight at a time and the newest value is queued behind it; a failed save keeps
 * the value for `flush` to send again. Plain object (not React state): the editor's handlers and
 * timers read and change it.
 */
export class SaveQueue<T, R> {
  private value: T;
  private version = 0;
  private savedVersion = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<boolean> | null = null;
  private queued = false;
  private disposed = false;

  constructor(private readonly options: SaveQueueOptions<T, R>) {
    this.value = options.initial;
  }

  /** The newest value (edited or not saved yet). */
  get latest(): T {
    return this.value;
  }

  /** Edits not saved yet (waiting, in flight or failed). */
  get unsaved(): boolean {
    return this.version !== this.savedVersion;
  }

  /** An edit: saved once the edits pause. */
  change(value: T): void {
    this.value = value;
    this.version += 1;
    this.options.onStatus(this.running ? { state: 'saving' } : { state: 'pending' });
    this.clearTimer();
    this.timer = setTimeout(() => void this.flush(), this.options.delayMs);
  }

  /** A value that needs no save (e.g. what the server answered): replaces the latest. */
  replace(value: T): void {
    this.value = value;
  }

  /** Saves now (behind a save in flight); true once everything edited so far is saved. */
  flush(): Promise<boolean> {
    this.clearTimer();
    if (this.running) {
      this.queued = true;
      return this.running;
    }
    this.running = this.work().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * The person chose the stored version over their edit (after a conflict): nothing is left
   * to save, not even when the editor goes away.
   */
  discard(): void {
    this.clearTimer();
    this.savedVersion = this.version;
  }

  /** The editor is (again) on the page: answers are reported. */
  attach(): void {
    this.disposed = false;
  }

  /** The editor is gone: a pending edit is still sent, nothing more is reported. */
  dispose(): void {
    this.clearTimer();
    this.disposed = true;
    if (this.unsaved && !this.running) void this.options.save(this.value).catch(() => undefined);
  }

  private async work(): Promise<boolean> {
    do {
      this.queued = false;
      if (!this.unsaved) break;
      const version = this.version;
      const value = this.value;
      this.report({ state: 'saving' });
      try {
        const result = await this.options.save(value);
        this.savedVersion = Math.max(this.savedVersion, version);
        if (!this.disposed) this.value = this.options.onSaved(value, result, this.value);
      } catch (error) {
        this.queued = false;
        this.report({ state: 'failed', message: this.options.describe(error) });
        return false;
      }
    } while (this.queued || (this.disposed && this.unsaved));
    this.report(this.unsaved ? { state: 'pending' } : { state: 'saved' });
    return !this.unsaved;
  }

  private report(status: SaveStatus): void {
    if (!this.disposed) this.options.onStatus(status);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** The timer functions a Poller waits with; tests pass fakes so a loop runs without real time passing. */
export interface PollerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers. */
export const realTimers: PollerTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Pacing and error handling of a {@link Poller}. */
export interface PollerOptions {
  /** Pause after a step that found no more work or threw, in milliseconds of real time. */
  intervalMs: number;
  /** Called with what a step threw; the loop goes on after the pause. Default: ignore. */
  onError?: (err: unknown) => void;
  /** Run the first step as soon as `start()` is called (default true); false waits `intervalMs` first. */
  runAtStart?: boolean;
  /** Do not keep the process alive while waiting (a housekeeping loop; default false). */
  unref?: boolean;
  /** Default {@link realTimers}. */
  timers?: PollerTimers;
}

/**
 * One background loop: runs `step`, again at once while it returns true (more work is waiting), otherwise after
 * `intervalMs`; runs never overlap, and a step that throws is reported to `onError`, never rethrown. Business
 * time (due rows, leases, ticks) comes from the Clock inside `step`; `intervalMs` only paces polling.
 * `stop()` ends the loop and resolves when the step in progress (if any) has ended.
 */
export class Poller {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly timers: PollerTimers;

  constructor(
    private readonly step: () => Promise<boolean | undefined>,
    private readonly opts: PollerOptions,
  ) {
    this.timers = opts.timers ?? realTimers;
  }

  /** Starts the loop; a second call while running does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Cuts the current pause short (e.g. new work was queued); does nothing during a step. */
  poke(): void {
    this.wake?.();
  }

  /** Stops the loop and waits for the step in progress. */
  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
  }

  private async run(): Promise<void> {
    if (this.opts.runAtStart === false) await this.pause();
    while (this.running) {
      let more = false;
      try {
        more = (await this.step()) === true;
      } catch (err) {
        this.opts.onError?.(err);
      }
      if (!more && this.running) await this.pause();
    }
  }

  private pause(): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = this.timers.setTimeout(() => {
        this.wake = null;
        resolve();
      }, this.opts.intervalMs);
      if (this.opts.unref) (t as { unref?: () => void } | undefined)?.unref?.();
      this.wake = () => {
        this.wake = null;
        this.timers.clearTimeout(t);
        resolve();
      };
    });
  }
}

/**
 * Runs `step` in a loop: again at once while it reports work done, after `idleMs` of real time when it found
 * none, and after `idleMs` when it threw (logged). Business time (due rows, leases, ticks) comes from the injected
 * Clock inside `step`; `idleMs` only paces polling. `stop()` waits for the running step to end.
 */
export class Poller {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly step: () => Promise<boolean>,
    private readonly idleMs: number,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Cuts the current idle wait short (e.g. a new document was queued). */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.step();
      } catch (err) {
        this.onError(err);
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.idleMs);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }
}

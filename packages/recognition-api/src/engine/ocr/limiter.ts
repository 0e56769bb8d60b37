/**
 * Counting semaphore: at most `limit` tasks run at once, the rest wait in FIFO order. Bounds concurrent
 * Tesseract processes per engine (one process per core; each is single-threaded).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Slots free at this moment (0 when every slot runs a task; a task asking from inside `run` holds one itself). */
  get idle(): number {
    return this.limit - this.active;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * The jobs of one process (docs/decisions.md "Poison documents run alone"), shared by its workers. A claim is made **alone** only when
 * nothing else runs in the process; while such a claim is being made, and while the document it took must be
 * run alone (its previous holder died while sharing the process with others), the other workers of the process
 * claim nothing. So a document re-run alone is the only work in its process, and a death then proves it guilty.
 */
export class JobGate {
  private running = 0;
  private exclusive = false;
  /** A worker was turned away since the gate closed: only then has anyone to be woken when it opens. */
  private turnedAway = false;

  /**
   * `onOpen` is called when the process stops running alone **and** a worker was turned away meanwhile, so that
   * worker looks again at once. Waking on every opening would make idle workers wake each other for ever: each
   * empty claim is made alone and opens the gate as it ends (on PGlite, whose queries resolve without I/O, that
   * loop starves the event loop).
   */
  constructor(private readonly onOpen: () => void = () => {}) {}

  private open(): void {
    if (!this.exclusive) return;
    this.exclusive = false;
    if (!this.turnedAway) return;
    this.turnedAway = false;
    this.onOpen();
  }

  /**
   * Reserves a slot for a claim; null when the process is running a document alone (wait for the next poll).
   * `alone` is true when nothing else runs: the claim may then take a document that must run alone.
   */
  enter(): { alone: boolean; isolated: (yes: boolean) => void; leave: () => void } | null {
    if (this.exclusive) {
      this.turnedAway = true;
      return null;
    }
    const alone = this.running === 0;
    this.running++;
    // Until the claim says what it took, nobody else starts: the claim may take a document that must run alone.
    if (alone) this.exclusive = true;
    let left = false;
    return {
      alone,
      isolated: (yes) => {
        if (alone && !yes) this.open();
      },
      leave: () => {
        if (left) return;
        left = true;
        this.running--;
        if (alone) this.open();
      },
    };
  }
}

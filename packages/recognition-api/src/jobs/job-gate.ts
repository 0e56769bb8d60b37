/**
 * The jobs of one process (issue 27, defect 3), shared by its workers. A claim is made **alone** only when
 * nothing else runs in the process; while such a claim is being made, and while the document it took must be
 * run alone (its previous holder died while sharing the process with others), the other workers of the process
 * claim nothing. So a document re-run alone is the only work in its process, and a death then proves it guilty.
 */
export class JobGate {
  private running = 0;
  private exclusive = false;

  /** `onOpen` is called when the process stops running alone, so workers that were turned away look again at once. */
  constructor(private readonly onOpen: () => void = () => {}) {}

  private open(): void {
    if (!this.exclusive) return;
    this.exclusive = false;
    this.onOpen();
  }

  /**
   * Reserves a slot for a claim; null when the process is running a document alone (wait for the next poll).
   * `alone` is true when nothing else runs: the claim may then take a document that must run alone.
   */
  enter(): { alone: boolean; isolated: (yes: boolean) => void; leave: () => void } | null {
    if (this.exclusive) return null;
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

import { Counter, Gauge, type Registry } from 'prom-client';

/** Counters of the loyalty machinery that an operator alerts on (served at /metrics). */
export interface LegMetrics {
  /** A leg's confirm/release gave up (`settle_failed`). */
  settleFailed(kind: string, effect: 'confirm' | 'release'): void;
  /** An order's bonus accrual ended without success (`failed` after bounded attempts, or `skipped`). */
  accrualEnded(outcome: 'failed' | 'skipped'): void;
}

/**
 * prom-client implementation: `delivery_loyalty_settle_failed_total{kind,effect}`,
 * `delivery_loyalty_accrual_ended_total{outcome}` and the gauge `delivery_loyalty_legs{state}` (read from the
 * database at scrape time, so stuck legs are visible from any instance).
 */
export function createLegMetrics(registry: Registry, legsByState: () => Promise<Record<string, number>>): LegMetrics {
  const settle = new Counter({
    name: 'delivery_loyalty_settle_failed_total',
    help: 'Loyalty legs whose confirm/release gave up',
    labelNames: ['kind', 'effect'],
    registers: [registry],
  });
  const accrual = new Counter({
    name: 'delivery_loyalty_accrual_ended_total',
    help: 'Bonus accruals that ended without success',
    labelNames: ['outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'delivery_loyalty_legs',
    help: 'Loyalty hold legs by state (settle_failed = stuck, needs a person)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await legsByState();
      this.reset();
      for (const s of ['holding', 'held', 'releasing', 'confirmed', 'released', 'failed', 'settle_failed']) this.set({ state: s }, counts[s] ?? 0);
    },
  });
  return {
    settleFailed: (kind, effect) => settle.inc({ kind, effect }),
    accrualEnded: (outcome) => accrual.inc({ outcome }),
  };
}

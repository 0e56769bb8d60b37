import { Counter, Gauge, type Registry } from 'prom-client';

/** Counters of the loyalty machinery that an operator alerts on (served at /metrics). */
export interface LegMetrics {
  /** A leg's confirm/release gave up (`settle_failed`). */
  settleFailed(kind: string, effect: 'confirm' | 'release'): void;
  /** An order's bonus accrual ended without success (`failed` after bounded attempts or a refusal). */
  accrualEnded(outcome: 'failed'): void;
}

/** What the gauges read from the database at scrape time (so every instance shows the same). */
export interface LegMetricReads {
  legsByState(): Promise<Record<string, number>>;
  /** Pending accruals by age bucket (OrdersRepo.pendingAccrualsByAge). */
  pendingAccruals?(): Promise<Record<string, number>>;
  /** Legs flagged for a refund a person must decide. */
  refundsRequired?(): Promise<number>;
}

/**
 * prom-client implementation: `delivery_loyalty_settle_failed_total{kind,effect}`,
 * `delivery_loyalty_accrual_ended_total{outcome}` and the gauges `delivery_loyalty_legs{state}`,
 * `delivery_loyalty_accruals_pending{age}` and `delivery_loyalty_refunds_required` (read from the database at
 * scrape time, so stuck legs, waiting accruals and refunds to decide are visible from any instance).
 */
export function createLegMetrics(registry: Registry, reads: LegMetricReads | (() => Promise<Record<string, number>>)): LegMetrics {
  const r: LegMetricReads = typeof reads === 'function' ? { legsByState: reads } : reads;
  const legsByState = () => r.legsByState();
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
  if (r.pendingAccruals) {
    const read = r.pendingAccruals;
    new Gauge({
      name: 'delivery_loyalty_accruals_pending',
      help: 'Bonus accruals waiting (pending) by time since delivery: under_15m, 15m_1h, 1h_1d, over_1d (also those waiting for loyalty to be on)',
      labelNames: ['age'],
      registers: [registry],
      async collect() {
        const counts = await read();
        this.reset();
        for (const age of ['under_15m', '15m_1h', '1h_1d', 'over_1d']) this.set({ age }, counts[age] ?? 0);
      },
    });
  }
  if (r.refundsRequired) {
    const read = r.refundsRequired;
    new Gauge({
      name: 'delivery_loyalty_refunds_required',
      help: 'Loyalty legs whose spend a person must decide on (a verified order the POS cancelled; delivery-operator order refunds)',
      registers: [registry],
      async collect() {
        this.set(await read());
      },
    });
  }
  return {
    settleFailed: (kind, effect) => settle.inc({ kind, effect }),
    accrualEnded: (outcome) => accrual.inc({ outcome }),
  };
}

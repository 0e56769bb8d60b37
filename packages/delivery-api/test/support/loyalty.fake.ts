import { randomIds, type Clock, type IdSource } from '@app/shared';
import { DEFAULT_WRITE_LIMIT, LoyaltyEngine, parseConfig, SimError, WriteLimiter, type SimulatorConfig } from '@app/loyalty-simulator';
import { serviceError } from '../../src/loyalty/loyalty.errors.js';
import {
  LoyaltyError,
  type AccrueRequest,
  type CalculateRequest,
  type CalculateResult,
  type CallOptions,
  type GuestLoyalty,
  type Hold,
  type HoldRequest,
  type HoldStatus,
  type LoyaltyPort,
} from '../../src/loyalty/loyalty.port.js';

/** Port methods, as named in scripts and in the call log. */
export type LoyaltyMethod = 'calculate' | 'hold' | 'getHold' | 'confirm' | 'release' | 'accrue' | 'getAccrual' | 'guestLoyalty';
const WRITES: ReadonlySet<LoyaltyMethod> = new Set(['hold', 'confirm', 'release', 'accrue']);

export interface FakeLoyaltyOptions {
  /** Same file format as the simulator (config/demo.json); balances, coupons and programs start from it. */
  config: SimulatorConfig;
  clock: Clock;
  ids?: IdSource;
  /** Writes per 60 s before `rate_limited`, like the simulator; default the config's, else 4. 0 = unlimited. */
  writeLimitPerMinute?: number;
}

/** A scripted failure: the code (with default reason) or a ready LoyaltyError. */
export type ScriptedFailure = 'unavailable' | 'rejected' | 'rate_limited' | LoyaltyError;

/**
 * In-memory loyalty service for tests: the simulator's own engine (same rules, balances and idempotency) behind
 * the port, without HTTP. Scripts: `failNext(method, n, failure)` fails the next n calls before they reach the
 * engine (nothing changes), `failAfter` fails after the engine applied the call (outcome unknown to the caller,
 * like a timeout after the service committed), `gate(method)` holds the next call until opened (for
 * `hold_in_progress` tests), `delayMs`. Every call is logged in `calls`.
 */
export class FakeLoyalty implements LoyaltyPort {
  readonly engine: LoyaltyEngine;
  readonly calls: { method: LoyaltyMethod; args: unknown }[] = [];
  /** Every scripted failure that was used, in order (`before`: the call changed nothing; `after`: it took effect). */
  readonly scriptsUsed: { method: LoyaltyMethod; failure: string; when: 'before' | 'after' }[] = [];
  private readonly limiter: WriteLimiter;
  private readonly before = new Map<LoyaltyMethod, ScriptedFailure[]>();
  private readonly after = new Map<LoyaltyMethod, ScriptedFailure[]>();
  private readonly gates = new Map<LoyaltyMethod, Promise<void>[]>();
  private readonly delays = new Map<LoyaltyMethod, number>();

  constructor(o: FakeLoyaltyOptions) {
    const config = parseConfig(o.config);
    this.engine = new LoyaltyEngine(config, o.clock, o.ids ?? randomIds);
    const limit = o.writeLimitPerMinute ?? config.faults?.writeLimitPerMinute ?? DEFAULT_WRITE_LIMIT;
    this.limiter = new WriteLimiter(o.clock, () => limit);
  }

  /** Forgets every scripted failure (before and after), delay and gate still pending. */
  clearScripts(): this {
    this.before.clear();
    this.after.clear();
    this.delays.clear();
    return this;
  }

  /** The next `n` calls of `method` fail with `failure` and change nothing. */
  failNext(method: LoyaltyMethod, n: number, failure: ScriptedFailure): this {
    this.before.set(method, [...(this.before.get(method) ?? []), ...Array<ScriptedFailure>(n).fill(failure)]);
    return this;
  }

  /** The next `n` calls of `method` take effect in the service, then fail (an unknown outcome). */
  failAfter(method: LoyaltyMethod, n: number, failure: ScriptedFailure = 'unavailable'): this {
    this.after.set(method, [...(this.after.get(method) ?? []), ...Array<ScriptedFailure>(n).fill(failure)]);
    return this;
  }

  /** Every call of `method` waits this many real milliseconds first (aborts are honoured). 0 = none. */
  delayMs(method: LoyaltyMethod, ms: number): this {
    this.delays.set(method, ms);
    return this;
  }

  /** The next call of `method` waits until `open()` is called (or its signal aborts). */
  gate(method: LoyaltyMethod): { open(): void } {
    let open!: () => void;
    const p = new Promise<void>((r) => (open = r));
    this.gates.set(method, [...(this.gates.get(method) ?? []), p]);
    return { open };
  }

  /** Scripted failures of `method` not used yet. */
  scripted(method: LoyaltyMethod): number {
    return (this.before.get(method)?.length ?? 0) + (this.after.get(method)?.length ?? 0);
  }

  /** Number of calls of a method so far. */
  count(method: LoyaltyMethod): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  calculate(req: CalculateRequest, opts?: CallOptions): Promise<CalculateResult> {
    return this.run('calculate', req, opts, () => {
      const { subtotalMinor: _s, customerId, bonus, ...rest } = this.engine.calculate(req);
      return { ...rest, guestFound: customerId !== null, bonus: { balanceMinor: bonus.balanceMinor, maxSpendMinor: bonus.maxSpendMinor } };
    });
  }

  hold(req: HoldRequest, opts?: CallOptions): Promise<Hold & { status: HoldStatus }> {
    const common = { idempotencyKey: req.idempotencyKey, organizationId: req.organizationId, orderRef: req.orderRef, amountMinor: req.amountMinor };
    if (req.kind === 'coupon') {
      return this.run('hold', req, opts, () => {
        if (!req.coupon) throw new LoyaltyError('rejected', 'coupon_invalid', 'coupon hold without a coupon code');
        const h = this.engine.holds.holdCoupon({ ...common, code: req.coupon });
        return { holdId: h.id, amountMinor: h.amountMinor, status: h.status };
      });
    }
    let wallet: { customerId: string; walletId: string } | undefined;
    // The wallet lookup is a read (customer/info) before the write, as the HTTP adapter does: it fails without
    // using up the write limit.
    const lookup = () => {
      const isBonus = req.kind === 'bonus';
      this.engine.assertConnected(req.organizationId);
      const c = isBonus ? this.engine.customers.byPhoneNumber(req.phone ?? '') : this.engine.customers.byCardNumber(req.certificateSerial ?? '');
      const w = c?.wallets.find((x) => x.type === req.kind);
      if (!c || !w) throw new LoyaltyError('rejected', isBonus ? 'guest_not_found' : 'certificate_invalid', `no ${req.kind} wallet`);
      wallet = { customerId: c.id, walletId: w.id };
    };
    return this.run(
      'hold',
      req,
      opts,
      () => {
        const h = this.engine.holds.holdWallet({ ...common, ...wallet! });
        return { holdId: h.id, amountMinor: h.amountMinor, status: h.status };
      },
      lookup,
    );
  }

  getHold(idempotencyKey: string, opts?: CallOptions): Promise<(Hold & { status: HoldStatus }) | null> {
    return this.run('getHold', { idempotencyKey }, opts, () => {
      const h = this.engine.holds.getByKey(idempotencyKey);
      return h ? { holdId: h.id, amountMinor: h.amountMinor, status: h.status } : null;
    });
  }

  confirm(req: { holdId: string; idempotencyKey: string }, opts?: CallOptions): Promise<void> {
    return this.run('confirm', req, opts, () => void this.engine.holds.chargeoff(req));
  }

  release(req: { holdId: string; idempotencyKey: string }, opts?: CallOptions): Promise<void> {
    return this.run('release', req, opts, () => void this.engine.holds.cancel(req));
  }

  accrue(req: AccrueRequest, opts?: CallOptions): Promise<{ accruedMinor: number }> {
    return this.run('accrue', req, opts, () => this.engine.accrue(req));
  }

  getAccrual(idempotencyKey: string, opts?: CallOptions): Promise<{ accruedMinor: number } | null> {
    return this.run('getAccrual', { idempotencyKey }, opts, () => this.engine.getAccrual(idempotencyKey));
  }

  guestLoyalty(organizationId: string, phone: string, opts?: CallOptions): Promise<GuestLoyalty | null> {
    return this.run('guestLoyalty', { organizationId, phone }, opts, () => {
      this.engine.assertConnected(organizationId);
      const c = this.engine.customers.byPhoneNumber(phone);
      if (!c) return null;
      return {
        wallets: c.wallets.map((w) => ({
          id: w.id,
          name: w.type === 'bonus' ? 'Bonus' : 'Certificate',
          type: w.type,
          balanceMinor: this.engine.availableOf(w.id),
        })),
        categories: c.category ? [{ id: `category-${c.category}`, name: c.category }] : [],
        coupons: this.engine
          .activeCouponsOf(c, organizationId)
          .map((k) => ({ number: k.code, name: k.name, percent: k.percent, amountMinor: k.amountMinor, validTo: k.validTo })),
      };
    });
  }

  /** One call: log, gate, delay, scripted failure, write limit, engine, after-failure; engine errors mapped like HTTP. */
  private async run<T>(method: LoyaltyMethod, args: unknown, opts: CallOptions | undefined, body: () => T, read?: () => void): Promise<T> {
    this.calls.push({ method, args });
    const gate = this.gates.get(method)?.shift();
    if (gate) await abortable(gate, opts?.signal);
    const ms = this.delays.get(method);
    if (ms) await abortable(new Promise((r) => setTimeout(r, ms)), opts?.signal);
    const pre = this.before.get(method)?.shift();
    if (pre) {
      this.scriptsUsed.push({ method, failure: scriptName(pre), when: 'before' });
      throw toError(pre);
    }
    const out = engineCall(() => {
      read?.();
      if (WRITES.has(method)) {
        const retry = this.limiter.take('fake');
        if (retry !== null) throw new LoyaltyError('rate_limited', 'write_limit', 'write limit', retry);
      }
      return body();
    });
    const post = this.after.get(method)?.shift();
    if (post) {
      this.scriptsUsed.push({ method, failure: scriptName(post), when: 'after' });
      throw toError(post);
    }
    return out;
  }
}

/** Runs engine code, mapping its SimError exactly as the HTTP adapter maps the same answer. */
function engineCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof SimError) throw serviceError(e.status, e.code, e.message, e.retryAfterSeconds?.toString());
    throw e;
  }
}

function scriptName(f: ScriptedFailure): string {
  return typeof f === 'string' ? f : f.code;
}

function toError(f: ScriptedFailure): LoyaltyError {
  if (f instanceof LoyaltyError) return f;
  if (f === 'rate_limited') return new LoyaltyError('rate_limited', 'write_limit', 'scripted', 60);
  return new LoyaltyError(f, f === 'unavailable' ? 'server_error' : 'rejected', 'scripted');
}

/** Waits for `p` unless the signal aborts first (→ `unavailable`/`aborted`, as the adapter reports it). */
function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new LoyaltyError('unavailable', 'aborted', 'aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LoyaltyError('unavailable', 'aborted', 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

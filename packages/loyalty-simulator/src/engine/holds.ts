import type { Clock, IdSource } from '@app/shared';
import { type CouponBook, normalizeCode } from './coupons.js';
import { available, type CustomerBook } from './customers.js';
import { SimError } from './errors.js';
import type { HoldRecord } from './types.js';

interface LedgerDeps {
  customers: CustomerBook;
  coupons: CouponBook;
  clock: Clock;
  ids: IdSource;
  assertConnected(organizationId: string): void;
}

/** Common fields of a hold request; `idempotencyKey` is the client's transaction key (1-128 chars). */
export interface HoldInput {
  idempotencyKey: string;
  organizationId: string;
  orderRef: string;
  amountMinor: number;
}

/**
 * Holds (reservations) on wallets and coupons, then chargeoff (spend) or cancel_hold (release).
 * Every write is idempotent by its key; a key reused for different data is IDEMPOTENCY_CONFLICT.
 */
export class HoldLedger {
  private readonly byId = new Map<string, HoldRecord>();
  private readonly byKey = new Map<string, HoldRecord>();
  private readonly settleKeys = new Map<string, { op: 'chargeoff' | 'cancel'; holdId: string }>();

  constructor(private readonly d: LedgerDeps) {}

  /** Every hold ever made, oldest first (test assertions: the ledger must balance against the caller's records). */
  list(): HoldRecord[] {
    return [...this.byId.values()];
  }

  /** Reserves `amountMinor` on a bonus or certificate wallet of a customer. */
  holdWallet(r: HoldInput & { customerId: string; walletId: string }): HoldRecord {
    const prior = this.repeat(r, { walletId: r.walletId });
    if (prior) return prior;
    const { wallet } = this.d.customers.wallet(r.customerId, r.walletId);
    const now = this.d.clock.now();
    if (wallet.type === 'certificate' && wallet.validTo && now >= wallet.validTo) throw new SimError('CERTIFICATE_INVALID', 'Certificate expired');
    if (available(wallet, now) < r.amountMinor) throw new SimError('INSUFFICIENT_BALANCE', 'Insufficient wallet balance');
    wallet.heldMinor += r.amountMinor;
    return this.record(r, { walletId: wallet.id });
  }

  /** Reserves a coupon for one order; `amountMinor` is its discount and may not exceed a fixed coupon's value. */
  holdCoupon(r: HoldInput & { code: string }): HoldRecord {
    const prior = this.repeat(r, { couponCode: normalizeCode(r.code) });
    if (prior) return prior;
    // The cart is not sent with a hold, so the minimum-order rule was checked by calculate, not here.
    const reason = this.d.coupons.check(r.code, r.organizationId, this.d.clock.now(), Number.MAX_SAFE_INTEGER);
    if (reason) throw new SimError('COUPON_INVALID', `Coupon cannot be used: ${reason}`);
    if (r.amountMinor > this.d.coupons.maxHold(r.code)) throw new SimError('COUPON_INVALID', 'Hold exceeds the coupon value');
    const rec = this.record(r, { couponCode: normalizeCode(r.code) });
    this.d.coupons.reserve(r.code, rec.id);
    return rec;
  }

  /** The hold recorded under a client key, if any (read back after an unknown outcome). */
  getByKey(idempotencyKey: string): HoldRecord | undefined {
    return this.byKey.get(idempotencyKey);
  }

  /** Spends a hold. Repeats are fine; a released hold is HOLD_STATE; an unknown one HOLD_NOT_FOUND. */
  chargeoff(r: { holdId: string; idempotencyKey: string }): HoldRecord {
    return this.settle(r, 'chargeoff');
  }

  /** Releases a hold. Repeats are fine; a spent hold is HOLD_STATE. */
  cancel(r: { holdId: string; idempotencyKey: string }): HoldRecord {
    return this.settle(r, 'cancel');
  }

  private settle(r: { holdId: string; idempotencyKey: string }, op: 'chargeoff' | 'cancel'): HoldRecord {
    const prior = this.settleKeys.get(r.idempotencyKey);
    if (prior && (prior.op !== op || prior.holdId !== r.holdId)) throw new SimError('IDEMPOTENCY_CONFLICT', 'Key reused for another operation');
    const h = this.byId.get(r.holdId);
    if (!h) throw new SimError('HOLD_NOT_FOUND', `No hold ${r.holdId}`);
    const target = op === 'chargeoff' ? 'confirmed' : 'released';
    if (h.status !== 'held' && h.status !== target) throw new SimError('HOLD_STATE', `Hold is already ${h.status}`);
    if (h.status === 'held') {
      const w = h.walletId ? this.d.customers.walletById(h.walletId) : undefined;
      if (w) {
        w.heldMinor -= h.amountMinor;
        if (op === 'chargeoff') w.balanceMinor -= h.amountMinor;
      }
      if (h.couponCode) this.d.coupons.settle(h.couponCode, h.id, op === 'chargeoff');
      h.status = target;
    }
    this.settleKeys.set(r.idempotencyKey, { op, holdId: r.holdId });
    return h;
  }

  /** Returns the earlier hold of this key, or throws when the key was used for something else. */
  private repeat(r: HoldInput, target: { walletId?: string; couponCode?: string }): HoldRecord | undefined {
    if (!Number.isInteger(r.amountMinor) || r.amountMinor <= 0) throw new SimError('BAD_REQUEST', 'sum must be positive');
    if (!r.idempotencyKey || r.idempotencyKey.length > 128) throw new SimError('BAD_REQUEST', 'idempotency key must be 1-128 characters');
    this.d.assertConnected(r.organizationId);
    const h = this.byKey.get(r.idempotencyKey);
    if (!h) return undefined;
    const same =
      h.organizationId === r.organizationId &&
      h.amountMinor === r.amountMinor &&
      h.walletId === target.walletId &&
      h.couponCode === target.couponCode;
    if (!same) throw new SimError('IDEMPOTENCY_CONFLICT', 'Hold key reused with other data');
    return h;
  }

  private record(r: HoldInput, target: { walletId?: string; couponCode?: string }): HoldRecord {
    const rec: HoldRecord = {
      id: this.d.ids.uuid(),
      idempotencyKey: r.idempotencyKey,
      organizationId: r.organizationId,
      orderRef: r.orderRef,
      amountMinor: r.amountMinor,
      status: 'held',
      ...target,
      createdAt: this.d.clock.now(),
    };
    this.byId.set(rec.id, rec);
    this.byKey.set(rec.idempotencyKey, rec);
    return rec;
  }
}

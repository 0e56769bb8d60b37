import type { Credential } from '../auth/credentials.repo.js';
import { toView, type OrderRecord } from '../orders/orders.repo.js';
import type { GuestAddress, GuestOrdersPage } from '@app/delivery-contract';
import type { PointsRepo, PointWithRoute } from '../points/points.repo.js';
import type { ZoneIndexCache } from '../zones/zone-index-cache.js';
import type { GuestHistoryRepo } from './guest-history.repo.js';
import { decodeCursor, encodeCursor } from './history-cursor.js';
import { normalisePhone } from './phone.js';

/** Page size of order history: default and maximum. */
export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;
/** Addresses: how many recent orders are looked at, and how many distinct addresses are returned at most. */
export const ADDRESS_ORDERS_SCANNED = 200;
export const ADDRESSES_MAX = 20;

/**
 * Guest history of the caller's source (switch `guest-api`): orders and distinct delivery addresses of a phone.
 * Only this source's orders at the key's points are read, so another source's or point's data never shows (a
 * phone without such orders gives an empty result). The phone is the path's, normalised; it is hashed before any
 * query and never logged.
 */
export class GuestsService {
  constructor(private readonly deps: { history: GuestHistoryRepo; points: PointsRepo; zoneIndex: ZoneIndexCache }) {}

  /**
   * GET /v1/guests/{phone}/orders. `limit` 1..100 (default 20). @throws ApiError invalid_phone (400);
   * invalid_request (400) for a bad limit or cursor.
   */
  async orders(cred: Credential, rawPhone: string, limit = HISTORY_DEFAULT_LIMIT, cursor?: string): Promise<GuestOrdersPage> {
    const phone = normalisePhone(rawPhone);
    const after = cursor ? decodeCursor(cursor) : null;
    const records = await this.read(cred, phone, limit + 1, after);
    const page = records.slice(0, limit);
    const last = page.at(-1);
    return { orders: page.map(toView), nextCursor: records.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
  }

  /** GET /v1/guests/{phone}/addresses: newest first, distinct by city, street, house and flat (case and spaces ignored). */
  async addresses(cred: Credential, rawPhone: string): Promise<{ addresses: GuestAddress[] }> {
    const phone = normalisePhone(rawPhone);
    const records = await this.read(cred, phone, ADDRESS_ORDERS_SCANNED, null);
    const seen = new Set<string>();
    const found: Omit<GuestAddress, 'zone'>[] = [];
    for (const o of records) {
      const a = addressOf(o);
      if (!a) continue;
      const key = [a.address.city, a.address.street, a.address.house, a.address.flat]
        .map((s) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' '))
        .join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(a);
      if (found.length === ADDRESSES_MAX) break;
    }
    const zoneOf = await this.zoneResolver(cred);
    return { addresses: found.map((a) => ({ ...a, zone: a.location ? zoneOf(a.location) : null })) };
  }

  private async read(cred: Credential, phone: string, limit: number, after: ReturnType<typeof decodeCursor> | null): Promise<OrderRecord[]> {
    await this.deps.history.indexPending(cred.tenantId, cred.source!);
    return this.deps.history.page({ tenantId: cred.tenantId, source: cred.source!, pointIds: cred.pointIds, phone, limit, after });
  }

  /** The zone choice of POST /v1/delivery/resolve for courier orders, without the "accepting now" check. */
  private async zoneResolver(cred: Credential): Promise<(at: { lat: number; lon: number }) => GuestAddress['zone']> {
    const points = (await this.deps.points.listForSource(cred.tenantId, cred.source!, cred.pointIds)).filter(
      (p) => p.route?.active && (p.deliveryTypes === null || p.deliveryTypes.includes('courier')),
    );
    const byId = new Map(points.map((p) => [p.pointId, p]));
    const index = await this.deps.zoneIndex.forTenant(cred.tenantId);
    return (at) => {
      const z = index.choose(
        at,
        (id) => byId.has(id),
        (id) => locationOf(byId.get(id)),
      );
      return z ? { zoneId: z.zoneId, pointId: z.pointId, name: z.name } : null;
    };
  }
}

function locationOf(p: PointWithRoute | undefined): { lat: number; lon: number } | null {
  return p && p.lat != null && p.lon != null ? { lat: p.lat, lon: p.lon } : null;
}

/** The delivery address of an order request (courier orders carry one; pickup orders may not). */
function addressOf(o: OrderRecord): Omit<GuestAddress, 'zone'> | null {
  const r = o.request as { address?: Record<string, string | undefined>; location?: { lat: number; lon: number }; deliveryType?: string };
  if (!r.address?.street || !r.address.house || r.deliveryType === 'pickup') return null;
  const s = (k: string) => r.address?.[k] ?? null;
  return {
    address: { city: s('city'), street: r.address.street, house: r.address.house, flat: s('flat'), entrance: s('entrance'), floor: s('floor') },
    location: r.location ? { lat: r.location.lat, lon: r.location.lon } : null,
    lastUsedAt: o.createdAt.toISOString(),
  };
}

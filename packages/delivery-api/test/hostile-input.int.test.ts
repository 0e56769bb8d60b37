import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactedErr } from '../src/http/logger.js';
import { findUnstorableText } from '../src/http/text-guard.js';
import { MARGHERITA, makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, createOrder } from './order-factory.js';

// The fuzz campaign's door kept shut: client text PostgreSQL refuses, odd bodies and paths.
let w: World;
let base: Record<string, unknown>;
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 1_000_000 });
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
  base = (await checkoutOrder(w, { coupon: 'WELCOME200', bonus: 100 })).order;
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

const counts = async () => {
  const [o] = await w.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  const [l] = await w.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM loyalty_legs WHERE state IN ('holding', 'held', 'releasing')`);
  return { orders: Number(o.n), reservingLegs: Number(l.n), holdCalls: w.loyalty.count('hold') };
};
const set = (o: Record<string, unknown>, path: string, v: unknown) => {
  const copy = structuredClone(o);
  const keys = path.split('.');
  let at = copy as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  at[keys.at(-1)!] = v;
  return copy;
};

describe('defect 8: text PostgreSQL cannot store → 400 before any side effect', () => {
  const fields = ['address.street', 'address.house', 'address.comment', 'guest.name', 'guest.externalClientId', 'comment'];
  for (const field of fields) {
    for (const [name, bad] of [
      ['a lone surrogate', 'x\ud800y'],
      ['a NUL', 'a\u0000b'],
    ] as const) {
      it(`${name} in ${field}`, async () => {
        const before = await counts();
        const r = await createOrder(w, set(base, field, bad));
        expect(r.statusCode).toBe(400);
        expect(r.json()).toEqual({ error: 'invalid_request' });
        expect(await counts()).toEqual(before);
      });
    }
  }

  it('GET /v1/orders?externalOrderId=%00 and a NUL in a path segment', async () => {
    expect((await w.call(w.partner, 'GET', '/v1/orders?externalOrderId=%00')).statusCode).toBe(400);
    expect((await w.call(w.partner, 'GET', '/v1/points/%00/menu')).statusCode).toBe(400);
  });

  it('finds bad text in keys and deep nesting without recursion', () => {
    expect(findUnstorableText({ a: [{ 'k\u0000': 1 }] }, 'body')).toBe('body.a[0] (a key)');
    let deep: unknown = 'ok\udc00';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep, 'body')).toMatch(/^body\[0\]/);
    expect(findUnstorableText({ emoji: '🍕', ok: 'Тверская' }, 'body')).toBeNull();
  });

  it('error logs keep the message and code but not the values a driver error quotes', () => {
    const err = Object.assign(new Error('invalid input syntax for type json'), {
      code: '22P02',
      where: 'JSON data, line 1: {"guest":{"name":"Иван","phone":"+79990000001"',
      detail: 'Token "\\ud800" is invalid.',
    });
    const out = redactedErr(err);
    expect(out).toMatchObject({ message: 'invalid input syntax for type json', code: '22P02' });
    expect(JSON.stringify(out)).not.toMatch(/79990000001|Иван|ud800/);
  });
});

// ---- property-based fuzz: no 5xx for any body or path, and a refused order leaves nothing behind ----

/** Strings with the edge cases of the fuzz campaign: unicode planes, lone surrogates, NUL, huge, look-alike numbers. */
const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\ud800',
    '\udfff',
    'a\u0000b',
    '\u202e',
    '🍕'.repeat(50),
    'x'.repeat(5000),
    '999999.999',
    '-1',
    '1e308',
    'NaN',
    '__proto__',
    'constructor',
  ),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nasty,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, 0),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nasty, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const orderFields = [
  'externalOrderId',
  'externalPointId',
  'guest',
  'guest.name',
  'guest.phone',
  'address',
  'address.street',
  'items',
  'total',
  'total.amountMinor',
  'comment',
  'deliveryType',
  'location',
  'persons',
  'coupon',
  'bonusToSpend',
  'certificate',
  'calculationId',
  'payment',
  'payment.amountMinor',
  'payment.change',
];
/** A valid order with 1-3 fields replaced by anything (the interesting fuzz is close to valid). */
const mutatedOrder = fc.array(fc.tuple(fc.constantFrom(...orderFields), json), { minLength: 1, maxLength: 3 }).map((muts) => {
  let o = structuredClone(base);
  for (const [path, v] of muts) o = set(o, path, v);
  return { ...o, externalOrderId: typeof o.externalOrderId === 'string' ? o.externalOrderId : 'fuzz' };
});
const postRoutes = [
  '/v1/delivery/resolve',
  '/v1/addresses/check',
  '/v1/checkout/calculate',
  '/v1/orders',
  '/v1/orders/00000000-0000-4000-8000-000000000000/cancel',
];
const posRoutes = [
  '/pos/v1/menu',
  '/pos/v1/stop-list',
  '/pos/v1/streets',
  '/pos/v1/product-mappings',
  '/pos/v1/heartbeat',
  '/pos/v1/orders/claim',
  '/pos/v1/cancellations/claim',
  '/pos/v1/orders/00000000-0000-4000-8000-000000000000/state',
  '/pos/v1/orders/00000000-0000-4000-8000-000000000000/delivery-status',
  '/pos/v1/orders/00000000-0000-4000-8000-000000000000/cancel-result',
];
/** Any bytes as a path segment, percent-encoded byte by byte (so invalid UTF-8 and NUL reach the server). */
const segment = fc.uint8Array({ minLength: 0, maxLength: 24 }).map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join(''));
const getRoutes = [
  '/v1/points/{}/menu',
  '/v1/points/{}/status',
  '/v1/points/{}/stop-list',
  '/v1/points/{}/products',
  '/v1/points/{}/delivery-zones',
  '/v1/orders/{}?source=website',
  '/v1/orders?externalOrderId={}',
  '/v1/catalog/revision?x={}',
];

describe('fuzz (fast-check): no 5xx anywhere; a refused order stores nothing and leaves no hold', () => {
  it('mutated orders', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedOrder, async (order) => {
        const before = await counts();
        const r = await createOrder(w, order);
        expect(r.statusCode).toBeLessThan(500);
        if (r.statusCode !== 201) expect({ ...(await counts()), holdCalls: 0 }).toEqual({ ...before, holdCalls: 0 });
        if (r.statusCode === 201) await w.db.query(`DELETE FROM loyalty_legs WHERE external_order_id = $1`, [order.externalOrderId]);
      }),
      { numRuns: 150, seed: 20261123 },
    );
  });

  it('every POST route with any JSON body, partner and POS keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...postRoutes, ...posRoutes), json, async (route, body) => {
        const key = route.startsWith('/pos/') ? w.pos['2'] : w.partner;
        const r = await w.call(key, 'POST', route, body);
        expect(r.statusCode).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('every GET route with any bytes in the path segment or query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...getRoutes), segment, async (route, seg) => {
        const r = await w.call(w.partner, 'GET', route.replace('{}', seg));
        expect(r.statusCode).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('a huge quantity is refused the same way in calculation and order creation', async () => {
    const cart = { pointId: '1', items: [{ id: MARGHERITA, quantity: '999999.999' }] };
    expect((await w.call(w.partner, 'POST', '/v1/checkout/calculate', cart)).statusCode).toBe(400);
  });
});

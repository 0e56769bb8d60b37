import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isUuid, ManualClock, SequentialIds } from '@app/shared';
import {
  DEMO_CHAIN_PATH,
  loadChain,
  seededRandom,
  startPosSimulator,
  type ChainDescription,
  type ClaimedOrder,
  type PosOrderPayload,
  type PosSimulator,
  type SimLogger,
  type TerminalCredential,
} from '../src/index.js';
import { FakePosServer } from './fake-pos-server.js';

let chain: ChainDescription;
let creds: TerminalCredential[];
const KEY = 'pos-key-101';
const HOUR = 3_600_000;

beforeAll(async () => {
  chain = await loadChain(DEMO_CHAIN_PATH);
  creds = chain.points.map((p) => ({
    pointId: p.pointId,
    apiKey: `pos-key-${p.pointId}`,
    apiSecret: `secret-of-terminal-${p.pointId}-0123456789abcdef`,
  }));
});

const running: { sim?: PosSimulator; server: FakePosServer }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.sim?.stop();
    await r.server.close();
  }
});

/** A report as sent: `kind` (state, delivery-status, cancel-result) plus the body's string fields. */
type Report = { kind: string } & Partial<
  Record<'state' | 'status' | 'claimId' | 'stableId' | 'posOrderId' | 'posDeliveryId' | 'message' | 'result' | 'detail' | 'at', string>
>;

let seq = 0;
/** A claim of a courier order at 101 with an `ok` street; `over` patches the payload. */
function claim(over: Partial<PosOrderPayload> = {}, streetStatus: PosOrderPayload['address']['streetStatus'] = 'ok'): ClaimedOrder {
  const orderId = `5a1e0000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
  const order = {
    orderId,
    stableId: orderId,
    externalNumber: `ord-${seq}`,
    kind: 'checkout',
    deliveryType: 'courier',
    comment: null,
    address: {
      city: 'Москва',
      street: 'Тверская улица',
      streetStatus,
      streetCity: 'Москва',
      house: '1',
      flat: null,
      entrance: null,
      floor: null,
      doorphone: null,
      comment: null,
    },
    ...over,
  } as PosOrderPayload;
  return { orderId, claimId: `c-${seq}`, claimExpiresAt: '2026-11-23T09:02:00Z', stableId: orderId, order };
}

async function setup(opts: { refuse?: (o: PosOrderPayload) => boolean; script?: FakePosServer['script'] } = {}) {
  const server = new FakePosServer(Object.fromEntries(creds.map((c) => [c.apiKey, c.apiSecret])));
  if (opts.script) server.script = opts.script;
  const baseUrl = await server.start();
  const entry: (typeof running)[number] = { server };
  running.push(entry);
  const warns: { fields: Record<string, unknown>; msg: string }[] = [];
  const log: SimLogger = { info: () => {}, warn: (fields, msg) => warns.push({ fields, msg }) };
  const clock = new ManualClock('2026-11-23T09:00:00Z');
  const sim = await startPosSimulator({
    baseUrl,
    chain,
    terminals: creds,
    clock,
    ids: new SequentialIds(),
    random: seededRandom(1),
    log,
    refuse: opts.refuse,
    intervals: { heartbeatMs: HOUR, stopListMs: HOUR, menuMs: HOUR, ordersMs: HOUR },
  });
  entry.sim = sim;
  /** Accepted reports on one order, in order: `kind` is the last path segment, the rest is the body sent. */
  const reports = (orderId: string): Report[] =>
    server
      .of(KEY)
      .filter((r) => r.path.startsWith(`/pos/v1/orders/${orderId}/`))
      .map((r) => ({ kind: r.path.split('/').pop()!, ...(r.body as Record<string, string>) }));
  const orders = () => sim.status().find((s) => s.pointId === '101')!.orders;
  return { server, sim, clock, warns, reports, orders };
}

describe('order flow of the simulated POS (against a signature-checking HTTP server)', () => {
  it('only the collecting point claims; an ok order is created and walked Unconfirmed → … → Closed, one step per 20 s', async () => {
    const { server, sim, clock, reports, orders, warns } = await setup();
    const c = claim();
    server.queue.set(KEY, [c]);
    await sim.tick();
    const collecting = chain.points.filter((p) => p.collectsOrders).map((p) => `pos-key-${p.pointId}`);
    expect(collecting).toEqual([KEY]);
    expect(server.requests.filter((r) => /orders|cancellations/.test(r.path) && r.apiKey !== KEY)).toEqual([]);
    const created = reports(c.orderId);
    expect(created.map((r) => r.state ?? r.status)).toEqual(['prepared', 'create_sending', 'created_verified', 'Unconfirmed']);
    expect(created.slice(0, 3).every((r) => r.claimId === c.claimId && r.stableId === c.orderId)).toBe(true);
    const { posOrderId, posDeliveryId } = created[2];
    expect(isUuid(posOrderId) && isUuid(posDeliveryId) && posOrderId !== posDeliveryId).toBe(true);
    expect(created[3]).toMatchObject({ at: '2026-11-23T09:00:00.000Z' });

    clock.advance(19_999);
    await sim.tick();
    expect(reports(c.orderId)).toHaveLength(4);
    for (const expected of ['New', 'Waiting', 'OnWay', 'Delivered', 'Closed']) {
      clock.advance(20_000);
      await sim.tick();
      expect(reports(c.orderId).at(-1)).toMatchObject({ kind: 'delivery-status', status: expected });
    }
    clock.advance(HOUR);
    await sim.tick();
    expect(reports(c.orderId)).toHaveLength(9);
    expect(orders()).toEqual([{ orderId: c.orderId, state: 'created_verified', posOrderId, deliveryStatus: 'Closed', cancelled: false }]);
    expect(server.views.get(c.orderId)).toMatchObject({ state: 'created_verified', deliveryStatus: 'Closed', posOrderId });
    expect(warns).toEqual([]);
  });

  it('a pickup order walks Unconfirmed → New → Closed', async () => {
    const { server, sim, clock, reports } = await setup();
    const c = claim({ deliveryType: 'pickup' });
    server.queue.set(KEY, [c]);
    for (let i = 0; i < 4; i++, clock.advance(20_000)) await sim.tick();
    expect(
      reports(c.orderId)
        .filter((r) => r.kind === 'delivery-status')
        .map((r) => r.status),
    ).toEqual(['Unconfirmed', 'New', 'Closed']);
  });

  it('an ambiguous, not_found or unknown street ends in reconciliation_required; #refuse ends in rejected_final', async () => {
    const { server, sim, reports } = await setup();
    const streets = (['ambiguous', 'not_found', 'unknown'] as const).map((s) => claim({}, s));
    const refused = claim({ comment: 'у двери #refuse' });
    server.queue.set(KEY, [...streets, refused]);
    await sim.tick();
    for (const c of streets) {
      expect(reports(c.orderId).map((r) => r.state)).toEqual(['prepared', 'create_sending', 'reconciliation_required']);
      expect(reports(c.orderId)[2]).toMatchObject({ message: `street "Тверская улица" is ${c.order.address.streetStatus} in the POS dictionary` });
      expect(reports(c.orderId)[2]).not.toHaveProperty('posOrderId');
    }
    expect(reports(refused.orderId).map((r) => r.state)).toEqual(['prepared', 'create_sending', 'rejected_final']);
    expect(reports(refused.orderId)[2]).toMatchObject({ message: 'refused by the restaurant' });
  });

  it('the refusal rule is configurable', async () => {
    const { server, sim, reports } = await setup({ refuse: (o) => o.externalNumber.endsWith('-x') });
    const plain = claim({ comment: '#refuse' });
    const refused = claim({ externalNumber: 'ord-x' });
    server.queue.set(KEY, [plain, refused]);
    await sim.tick();
    expect(
      reports(plain.orderId)
        .map((r) => r.state)
        .filter(Boolean),
    ).toEqual(['prepared', 'create_sending', 'created_verified']);
    expect(reports(refused.orderId).map((r) => r.state)).toEqual(['prepared', 'create_sending', 'rejected_final']);
  });

  it('cancels up to New, refuses past New with not_new and unknown orders with not_found; a cancelled order stops walking', async () => {
    const { server, sim, clock, reports, orders } = await setup();
    const early = claim();
    const late = claim();
    server.queue.set(KEY, [late]);
    await sim.tick();
    clock.advance(20_000);
    await sim.tick(); // late: New
    clock.advance(20_000);
    server.queue.set(KEY, [early]);
    await sim.tick(); // late: Waiting; early: Unconfirmed
    const unknown = '5a1e0000-0000-4000-8000-ffffffffffff';
    server.cancelQueue.set(
      KEY,
      [early, late, { orderId: unknown }].map((o) => ({
        orderId: o.orderId,
        stableId: o.orderId,
        posOrderId: null,
        state: 'created_verified',
        reason: 'client refusal',
      })),
    );
    clock.advance(20_000);
    await sim.tick();
    expect(reports(early.orderId).filter((r) => r.kind === 'cancel-result')).toEqual([{ kind: 'cancel-result', result: 'cancelled' }]);
    expect(reports(late.orderId).filter((r) => r.kind === 'cancel-result')).toEqual([
      { kind: 'cancel-result', result: 'rejected', detail: 'not_new' },
    ]);
    expect(server.of(KEY, `/pos/v1/orders/${unknown}/cancel-result`).map((r) => r.body)).toEqual([{ result: 'rejected', detail: 'not_found' }]);
    // The cancel went first in the round: the cancelled order never moved on, the refused one kept walking.
    expect(reports(early.orderId).at(-1)).toMatchObject({ kind: 'cancel-result' });
    expect(reports(late.orderId).at(-1)).toMatchObject({ kind: 'delivery-status', status: 'OnWay' });
    clock.advance(HOUR);
    await sim.tick();
    expect(orders().find((o) => o.orderId === early.orderId)).toMatchObject({ deliveryStatus: 'Unconfirmed', cancelled: true });
  });

  it('a failed report is logged and resumed next round with the same ids; a lost lease drops the order until it is claimed again', async () => {
    let fail: string | null = 'create_sending';
    const { server, sim, reports, warns, orders } = await setup({
      script: ({ path, body }) =>
        (body as { state?: string }).state === fail && path.endsWith('/state')
          ? { status: 500, body: { error: 'internal_error', message: 'boom' } }
          : undefined,
    });
    const c = claim();
    server.queue.set(KEY, [c]);
    await sim.tick();
    expect(reports(c.orderId).map((r) => r.state)).toEqual(['prepared']);
    expect(warns.map((w) => [w.fields.what, (w.fields.err as { code: string }).code])).toEqual([['state', 'internal_error']]);
    expect(sim.status().find((s) => s.pointId === '101')!.lastError).toMatchObject({ what: 'state', code: 'internal_error' });
    fail = 'created_verified';
    await sim.tick();
    expect(reports(c.orderId).map((r) => r.state)).toEqual(['prepared', 'create_sending']);

    // The lease expired meanwhile: the server refuses the claim id; the order is forgotten, then claimed again.
    server.script = ({ body }) =>
      (body as { claimId?: string }).claimId === c.claimId
        ? { status: 409, body: { error: 'invalid_or_expired_claim', message: 'claim is not current' } }
        : undefined;
    await sim.tick();
    expect(orders()).toEqual([]);
    expect(warns.at(-1)).toMatchObject({ msg: 'order dropped: the server refused the report', fields: { orderId: c.orderId } });
    server.queue.set(KEY, [{ ...c, claimId: 'c-again' }]);
    await sim.tick();
    const again = reports(c.orderId).filter((r) => r.claimId === 'c-again');
    expect(again.map((r) => r.state)).toEqual(['prepared', 'create_sending', 'created_verified']);
    expect(isUuid(again[2].posOrderId)).toBe(true);
    expect(sim.status().find((s) => s.pointId === '101')!.lastError).toBeNull();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOB_LEASE_MS } from '../src/jobs/lease.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

/** Fair claim order of the queue, on the real database. */
let h: Harness;
beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.db.query('DELETE FROM documents');
  await h.db.query('DELETE FROM queue_turns');
  // Claim numbers decide the batch turns (every 4th claim): each test starts at claim 1.
  await h.db.query('ALTER SEQUENCE queue_claim_seq RESTART');
});

/** Uploads one page; the clock moves 1 ms so creation order is unambiguous. */
const upload = async (key: string, priority: 'normal' | 'batch' = 'normal') => {
  h.clock.advance(1);
  return uploadNow(key, priority);
};
const uploadNow = async (key: string, priority: 'normal' | 'batch') =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': key },
      payload: recognizeForm([await pngPage()], { priority }),
    })
  ).json().id as string;
/** Claims until the queue is empty; returns the claimed ids in order. */
const drain = async () => {
  const order: string[] = [];
  const claim = () => h.services.queue.claim(h.clock.now(), JOB_LEASE_MS, { alone: true }); // one worker, alone
  for (let doc = await claim(); doc; doc = await claim()) order.push(doc.id);
  return order;
};

describe('fair queue', () => {
  it("round-robins between keys: key B's single document is taken second, not after key A's backlog", async () => {
    const a: string[] = [];
    for (let i = 0; i < 8; i++) {
      a.push(await upload(h.keyA));
      h.clock.advance(1000);
    }
    const b = await upload(h.keyB);
    const order = await drain();
    expect(order).toHaveLength(9);
    expect(order.indexOf(b)).toBe(1);
    expect(order.filter((id) => id !== b)).toEqual(a); // each key's own documents stay first-come
  });

  it('alternates while both keys have work', async () => {
    const a = [await upload(h.keyA), await upload(h.keyA), await upload(h.keyA)];
    const b = [await upload(h.keyB), await upload(h.keyB), await upload(h.keyB)];
    expect(await drain()).toEqual([a[0], b[0], a[1], b[1], a[2], b[2]]);
  });

  it('normal work goes before batch at every tick, even batch work uploaded earlier', async () => {
    const batch = [await upload(h.keyA, 'batch'), await upload(h.keyA, 'batch'), await upload(h.keyB, 'batch')];
    expect(await drain()).toEqual([]); // batch waits for its quarter-hour tick
    h.clock.advance(15 * 60_000);
    const normal = await upload(h.keyA);
    const order = await drain();
    expect(order[0]).toBe(normal);
    // Round-robin inside the batch class too: key A was just served (its normal document), so key B goes next.
    expect(order.slice(1)).toEqual([batch[2], batch[0], batch[1]]);
  });

  it('a document whose holder died (lease expired) is claimed again, high first', async () => {
    const normal = await upload(h.keyA);
    const claimed = await h.services.queue.claim(h.clock.now(), JOB_LEASE_MS);
    expect(claimed!.id).toBe(normal);
    await h.db.query(`UPDATE documents SET priority = 'high' WHERE id = $1`, [normal]);
    const other = await upload(h.keyB);
    h.clock.advance(JOB_LEASE_MS + 1);
    expect(await drain()).toEqual([normal, other]);
  });
});

describe('batch share', () => {
  it('under a sustained normal load every 4th claim takes due batch work, so a quarter-hour batch is not starved', async () => {
    const batch = [await upload(h.keyB, 'batch'), await upload(h.keyB, 'batch')];
    h.clock.advance(15 * 60_000); // the tick: both batch documents are due
    const normal: string[] = [];
    for (let i = 0; i < 10; i++) normal.push(await upload(h.keyA));
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      order.push((await h.services.queue.claim(h.clock.now(), JOB_LEASE_MS))!.id);
      normal.push(await upload(h.keyA)); // normal work keeps arriving faster than it is taken
    }
    expect(order.map((id) => (batch.includes(id) ? 'batch' : 'normal'))).toEqual([
      'normal',
      'normal',
      'normal',
      'batch',
      'normal',
      'normal',
      'normal',
      'batch',
    ]);
  });
});

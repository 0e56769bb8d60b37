import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { RequestIdsRepo } from '../src/auth/request-ids.repo.js';
import { MIGRATIONS } from './harness.js';
import { requestIdContract } from './support/request-id-contract.js';

// The database store (the default without REDIS_URL), on PGlite or on PostgreSQL with DATABASE_URL.
let db: Db;
beforeAll(async () => {
  db = await openTestDb(MIGRATIONS);
});
afterAll(async () => {
  await db.close();
});

describe('RequestIdsRepo: the single-use request-id contract', () => {
  requestIdContract({
    fresh: async () => new RequestIdsRepo(db),
    unavailable: async () =>
      new RequestIdsRepo({
        query: async () => {
          throw new Error('connection refused');
        },
      } as unknown as Db),
  });

  it('an id is accepted again after it expired, and the purge removes expired ones only', async () => {
    const repo = new RequestIdsRepo(db);
    const t0 = new Date('2026-11-23T10:00:00Z');
    const id = randomUUID();
    expect(await repo.consume('key-cccc', id, t0, new Date(t0.getTime() + 600_000))).toBe(true);
    const later = new Date(t0.getTime() + 600_001);
    expect(await repo.consume('key-cccc', id.toUpperCase(), later, new Date(later.getTime() + 600_000))).toBe(true);
    expect(await repo.consume('key-cccc', id, later, new Date(later.getTime() + 600_000))).toBe(false);
    const stored = await db.query<{ request_id: string }>(`SELECT request_id FROM request_ids WHERE api_key = 'key-cccc'`);
    expect(stored).toEqual([{ request_id: id }]); // lower case
  });
});

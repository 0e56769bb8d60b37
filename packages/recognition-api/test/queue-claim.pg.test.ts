/**
 * Queue claims on PostgreSQL (two connections; collected only when DATABASE_URL is PostgreSQL): while one
 * worker is claiming the round-robin key's only due document (its row locked, not yet committed), a second
 * worker claiming at the same moment gets the next key's document instead of coming back empty and idling for
 * a poll interval.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, openDb, type Db } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecognitionDb } from '../src/db.js';
import { DocumentsRepo } from '../src/documents/documents.repo.js';
import type { DocumentRecord } from '../src/documents/documents.types.js';
import { JOB_LEASE_MS } from '../src/jobs/lease.js';
import { QueueRepo } from '../src/jobs/queue.repo.js';
import { KeysRepo } from '../src/keys/keys.repo.js';

const base = process.env.DATABASE_URL!;
const dbName = `recog_claim_${randomBytes(4).toString('hex')}`;
const url = (() => {
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const clock = new ManualClock('2026-11-25T10:00:00Z');
let admin: Db;
let w1: Db;
let w2: Db;
let dataDir: string;

beforeAll(async () => {
  admin = await openDb({ databaseUrl: base });
  await admin.query(`CREATE DATABASE ${dbName}`);
  dataDir = mkdtempSync(join(tmpdir(), 'recog-claim-'));
  w1 = await openRecognitionDb({ databaseUrl: url, dataDir });
  w2 = await openDb({ databaseUrl: url, schema: 'recognition' });
});
afterAll(async () => {
  await w1?.close();
  await w2?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const queued = (id: string, apiKeyId: string, createdAt: Date): DocumentRecord => ({
  id,
  apiKeyId,
  status: 'queued',
  requestedType: 'upd',
  documentType: 'upd',
  imageQuality: 'scan',
  outputFormat: 'json',
  priority: 'normal',
  callbackUrl: null,
  clientRef: null,
  files: [`${id}/page-1.png`],
  createdAt,
  availableAt: createdAt,
  leaseUntil: null,
  leaseToken: 0,
  attempts: 0,
  completedAt: null,
  data: null,
  confidence: null,
  warnings: null,
  processingTimeMs: null,
  errorCode: null,
  errorMessage: null,
});

describe('two workers claiming at the same moment', () => {
  it("the second gets the next key's document while the first holds the round-robin key's only row", async () => {
    const keys = new KeysRepo(w1, clock);
    const a = (await keys.create('A')).record.id;
    const b = (await keys.create('B')).record.id;
    const docs = new DocumentsRepo(w1);
    await docs.insert(queued('doc_a1', a, new Date('2026-11-25T09:00:00Z'))); // key A is first in the round-robin
    await docs.insert(queued('doc_b1', b, new Date('2026-11-25T09:30:00Z')));
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let first: DocumentRecord | null = null;
    const claiming = w1.tx(async (q) => {
      first = await new QueueRepo(q).claim(clock.now(), JOB_LEASE_MS);
      await held; // the first worker's claim is not committed yet
    });
    for (let i = 0; i < 2000 && !first; i++) await new Promise((r) => setTimeout(r, 5));
    expect(first!.id).toBe('doc_a1');
    const second = await new QueueRepo(w2).claim(clock.now(), JOB_LEASE_MS);
    release();
    await claiming;
    expect(second?.id).toBe('doc_b1');
  });
});

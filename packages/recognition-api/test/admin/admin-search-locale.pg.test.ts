/**
 * The admin document search on a PostgreSQL database created with the C locale (LC_CTYPE 'C', where lower() folds
 * ASCII only; collected only when DATABASE_URL is PostgreSQL): a Cyrillic counterparty and client_ref are still found
 * whatever the case of the search and of the stored text.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, openDb, type Db } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminDocumentsRepo } from '../../src/admin-web/admin-documents.repo.js';
import { openRecognitionDb } from '../../src/db.js';
import { DocumentsRepo } from '../../src/documents/documents.repo.js';
import { KeysRepo } from '../../src/keys/keys.repo.js';
import { makeData } from '../fixtures.js';

const base = process.env.DATABASE_URL!;
const dbName = `recog_clocale_${randomBytes(4).toString('hex')}`;
const url = (() => {
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const clock = new ManualClock('2026-11-28T10:00:00Z');
let admin: Db;
let db: Db;
let dataDir: string;

beforeAll(async () => {
  admin = await openDb({ databaseUrl: base });
  await admin.query(`CREATE DATABASE ${dbName} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  dataDir = mkdtempSync(join(tmpdir(), 'recog-clocale-'));
  db = await openRecognitionDb({ databaseUrl: url, dataDir });
});
afterAll(async () => {
  await db?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('admin document search on a C-locale PostgreSQL', () => {
  it('finds a mixed-case Cyrillic counterparty and client_ref, where lower() alone does not fold', async () => {
    // the premise: this database's lower() leaves Cyrillic as it is
    expect((await db.query<{ l: string }>("SELECT lower('РоМашка') AS l"))[0]!.l).toBe('РоМашка');
    const key = (await new KeysRepo(db, clock).create('Бухгалтерия')).record.id;
    const data = makeData();
    data.seller.name = 'ООО «РоМашка-Плюс»';
    const at = clock.now();
    await new DocumentsRepo(db).insert({
      id: 'doc_cyr',
      apiKeyId: key,
      status: 'completed',
      requestedType: 'upd',
      documentType: 'upd',
      imageQuality: 'scan',
      outputFormat: 'json',
      priority: 'normal',
      callbackUrl: null,
      clientRef: 'Заказ-Север-17',
      files: ['doc_cyr/page-1.png'],
      createdAt: at,
      availableAt: at,
      leaseUntil: null,
      leaseToken: 0,
      attempts: 0,
      completedAt: at,
      data,
      confidence: 0.9,
      warnings: [],
      processingTimeMs: 100,
      errorCode: null,
      errorMessage: null,
    });
    const search = async (text: string) => (await new AdminDocumentsRepo(db).list({ text, limit: 20, offset: 0 })).rows.map((r) => r.id);
    expect(await search('ромашка-плюс')).toEqual(['doc_cyr']);
    expect(await search('РОМАШКА')).toEqual(['doc_cyr']);
    expect(await search('заказ-СЕВЕР')).toEqual(['doc_cyr']);
    expect(await search('юг')).toEqual([]);
  });
});

/**
 * Storage and rows agree. DELETE removes the row, its callback and the callback's attempts in
 * one transaction (a failure half-way changes nothing), and the orphan sweep removes files that have no row (an
 * upload or a DELETE that crashed between files and row) once they are an hour old.
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS } from '../src/documents/orphan-files.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => h.close());

const upload = async (fields: Record<string, string> = {}) =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()], fields),
    })
  ).json().id as string;
const del = (id: string) => h.app.inject({ method: 'DELETE', url: `/api/v1/documents/${id}`, headers: { 'x-api-key': h.keyA } });
const n = async (sql: string, id: string) => (await h.db.query<{ n: number }>(sql, [id]))[0]!.n;

describe('DELETE is one transaction', () => {
  it('a failure while removing the callback leaves the document, its callback and its files as they were', async () => {
    const id = await upload({ callback_url: 'https://receiver.example/hook' });
    await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
    expect(await n('SELECT count(*)::int AS n FROM callbacks WHERE document_id = $1', id)).toBe(1);
    // The database refuses the second statement of the delete (as a crash or a lost connection would stop it).
    await h.db.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await h.db.query('CREATE TRIGGER refuse_callback_delete BEFORE DELETE ON callbacks FOR EACH ROW EXECUTE FUNCTION refuse()');
    try {
      expect((await del(id)).statusCode).toBe(500);
    } finally {
      await h.db.query('DROP TRIGGER refuse_callback_delete ON callbacks');
      await h.db.query('DROP FUNCTION refuse()');
    }
    expect(await n('SELECT count(*)::int AS n FROM documents WHERE id = $1', id)).toBe(1);
    expect(await n('SELECT count(*)::int AS n FROM callbacks WHERE document_id = $1', id)).toBe(1);
    expect(existsSync(h.files.documentDir(id))).toBe(true);
    // Then it works, and takes everything.
    expect((await del(id)).json()).toEqual({ deleted: true });
    expect(await n('SELECT count(*)::int AS n FROM callbacks WHERE document_id = $1', id)).toBe(0);
    expect(existsSync(h.files.documentDir(id))).toBe(false);
  });
});

describe('orphan file sweep', () => {
  it('removes files without a row once older than the grace period; keeps files with a row and fresh ones', async () => {
    const kept = await upload();
    const old = new Date(h.clock.now().getTime() - ORPHAN_GRACE_MS - 1000);
    const orphan = (id: string, at: Date) => {
      const dir = h.files.documentDir(id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'page-1.png'), 'x');
      utimesSync(dir, at, at);
    };
    orphan('doc_crashedupload', old);
    orphan('doc_uploadinprogress', new Date(h.clock.now().getTime() - 60_000));
    utimesSync(h.files.documentDir(kept), old, old);
    expect(await h.services.orphanFiles.runOnce()).toBe(1);
    expect(existsSync(h.files.documentDir('doc_crashedupload'))).toBe(false);
    expect(existsSync(h.files.documentDir('doc_uploadinprogress'))).toBe(true);
    expect(existsSync(h.files.documentDir(kept))).toBe(true);
  });
});

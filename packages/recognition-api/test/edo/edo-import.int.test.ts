import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFormalizedUpd, validateAgainstXsd } from '../../src/formalized/index.js';
import { runWorkerStep } from '../../src/jobs/worker.js';
import { pngPage } from '../fixtures.js';
import { torg12Xml } from '../formalized/torg12-xml.js';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

// POST /api/v1/edo/documents/{messageId}/{entityId}/import (issue 24): operator entity → document record.

let e: EdoHarness;
let both2: string;
beforeAll(async () => {
  e = await makeEdoHarness();
  both2 = (await e.h.services.keys.create('both 2', undefined, ['recognition', 'edo'])).key;
});
afterAll(async () => e.close());
beforeEach(async () => {
  await e.h.db.query('DELETE FROM documents');
});

const url = (d: { messageId: string; entityId: string }) => `/api/v1/edo/documents/${d.messageId}/${d.entityId}/import`;
const importDoc = (d: { messageId: string; entityId: string }, key = e.keys.both, body?: unknown) =>
  e.inject('POST', url(d), { key, body: body ?? {} });
const count = async () => (await e.h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents'))[0]!.n;
const inbound = () => e.sim.state.documents.filter((d) => d.direction === 'Inbound');

describe('importing the seeded box’s inbound formalized documents', () => {
  it('the seeded documents are the 5.03 seller title written by the recognition writer (XSD-valid when it is configured)', async () => {
    for (const d of e.sim.state.documents) {
      const read = readFormalizedUpd(d.content);
      expect(read).toMatchObject({ formatVersion: '5.03', knd: '1115131', function: d.typeNamedId === 'Invoice' ? 'СЧФ' : 'СЧФДОП' });
      expect(`${read.fileId}.xml`).toBe(d.fileName);
      expect(d.content.subarray(0, 60).toString('latin1')).toContain('encoding="windows-1251"');
      // RECOGNITION_UPD_XSD names the official FNS schema when the operator provides it (docs/formalized-xml.md).
      if (process.env.RECOGNITION_UPD_XSD) await validateAgainstXsd(d.content, process.env.RECOGNITION_UPD_XSD);
    }
  });

  it('each imports with confidence 1.00, source edo, and exports to accounting with the same totals', async () => {
    const docs = inbound();
    expect(docs.length).toBeGreaterThan(0);
    for (const d of docs) {
      const res = await importDoc(d);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ status: 'completed', confidence: 1, document_type: d.typeNamedId === 'Invoice' ? 'invoice' : 'upd' });
      expect(body.source).toEqual({ kind: 'edo', content: 'formalized_xml', messageId: d.messageId, entityId: d.entityId, boxId: e.sim.boxId });
      expect(body.data.document).toEqual({ number: d.number, date: d.date });
      const acc = (await e.inject('GET', `/api/v1/documents/${body.id}/export?format=accounting`, { key: e.keys.both })).json();
      expect(acc.totals.amount_with_nds).toBe(body.data.totals.amount_with_nds);
      expect(acc.document_id).toBe(body.id);
    }
    expect(await count()).toBe(docs.length);
  });

  it('the same entity twice gives the same document; another key gets its own', async () => {
    const d = inbound()[0]!;
    const first = await importDoc(d);
    const again = await importDoc(d);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const other = await importDoc(d, both2);
    expect(other.statusCode).toBe(201);
    expect(other.json().id).not.toBe(first.json().id);
    expect(await count()).toBe(2);
  });

  it('two concurrent imports of one entity make one record', async () => {
    const d = inbound()[1]!;
    const [a, b] = await Promise.all([importDoc(d), importDoc(d)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().id).toBe(b.json().id);
    expect(await count()).toBe(1);
  });
});

describe('a scanned entity and refusals', () => {
  it('a non-formalized entity (an image) is queued for the engine and recognised like an upload', async () => {
    const d = inbound()[2]!;
    const saved = { content: d.content, fileName: d.fileName };
    d.content = await pngPage();
    d.fileName = 'scan.png';
    try {
      const res = await importDoc(d, e.keys.both, { image_quality: 'scan', client_ref: 'scan-1' });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ status: 'queued', client_ref: 'scan-1' });
      await runWorkerStep({ queue: e.h.services.queue, processor: e.h.services.processor, clock: e.clock });
      const doc = (await e.inject('GET', `/api/v1/documents/${res.json().id}`, { key: e.keys.both })).json();
      expect(doc).toMatchObject({ status: 'completed', source: { kind: 'edo', content: 'pages', messageId: d.messageId } });
      expect(e.h.engine.calls.length).toBeGreaterThan(0);
    } finally {
      Object.assign(d, saved);
    }
  });

  it('an entity holding a ТОРГ-12 seller title imports as a completed torg12 record', async () => {
    const d = inbound()[3]!;
    const saved = d.content;
    d.content = torg12Xml();
    try {
      const res = await importDoc(d);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ status: 'completed', confidence: 1, document_type: 'torg12', data: { document: { number: 'ТН-0457' } } });
      expect(res.json().source).toMatchObject({ kind: 'edo', content: 'formalized_xml', entityId: d.entityId });
    } finally {
      d.content = saved;
    }
  });

  it('an entity whose XML is not a supported formalized document: 422, nothing stored', async () => {
    const d = inbound()[3]!;
    const saved = d.content;
    d.content = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Файл ВерсФорм="5.03"><Документ КНД="1175012"/></Файл>');
    try {
      const res = await importDoc(d);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(/^entityId: ".*" is not a readable formalized document \(unknown_knd\)/);
      expect(await count()).toBe(0);
    } finally {
      d.content = saved;
    }
  });

  it('an edo-only key is refused (the record needs the recognition scope); an unknown entity is EDO_NOT_FOUND', async () => {
    const d = inbound()[0]!;
    expect((await importDoc(d, e.keys.edo)).statusCode).toBe(403);
    const missing = await importDoc({ messageId: '00000000-0000-4000-8000-000000000001', entityId: '00000000-0000-4000-8000-000000000002' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('EDO_NOT_FOUND');
    expect(await count()).toBe(0);
  });

  it('priority=high and unknown body fields are 422', async () => {
    const d = inbound()[0]!;
    expect((await importDoc(d, e.keys.both, { priority: 'high' })).statusCode).toBe(422);
    expect((await importDoc(d, e.keys.both, { colour: 'red' })).statusCode).toBe(422);
    expect(await count()).toBe(0);
  });
});

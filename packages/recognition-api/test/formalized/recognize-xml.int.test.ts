import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sourceFileKey } from '../../src/documents/formalized-intake.js';
import { writeFormalizedUpd } from '../../src/formalized/index.js';
import { runWorkerStep } from '../../src/jobs/worker.js';
import { makeHarness, type Harness } from '../harness.js';
import { pngPage } from '../fixtures.js';
import { truth, WRITE_OPTIONS } from './helpers.js';
import { torg12Xml } from './torg12-xml.js';

// POST /recognize with one formalized XML file (issue 24): a normal, completed document record; bad files → 422.

let h: Harness;
beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => h.close());
beforeEach(async () => {
  h.engine.calls = [];
  await h.db.query('DELETE FROM callbacks');
  await h.db.query('DELETE FROM documents');
  for await (const f of h.files.listDocuments()) await h.files.removeDocument(f.documentId);
});

/** A multipart form with XML files (declared `type`, default application/xml) and optional extra images. */
function xmlForm(files: { bytes: Buffer; type?: string; name?: string }[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries({ document_type: 'auto', image_quality: 'scan', ...fields })) form.append(k, v);
  for (const f of files) form.append('images[]', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/xml' }), f.name ?? 'upd.xml');
  return form;
}
const post = (payload: FormData, key = h.keyA) => h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': key }, payload });
const get = (url: string, key = h.keyA) => h.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const count = async () => (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents'))[0]!.n;
/** Document folders in the file store (a refused file must leave none). */
const folders = async () => {
  const out: string[] = [];
  for await (const f of h.files.listDocuments()) out.push(f.documentId);
  return out;
};

/** As the API returns it (JSON drops the `nds_exempt: undefined` of docgen's truth). */
const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const upd = asJson(truth(8, 'upd'));
const updXml = writeFormalizedUpd(upd, 'upd', WRITE_OPTIONS).xml;

describe('a formalized UPD upload', () => {
  it('is a completed record with confidence 1.00, the file data and source upload/formalized_xml, without the engine', async () => {
    const res = await post(xmlForm([{ bytes: updXml }], { client_ref: 'edo-1' }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'completed',
      document_type: 'upd',
      confidence: 1,
      warnings: [],
      data: upd,
      manual_check_recommended: false,
    });
    expect(h.engine.calls).toHaveLength(0);
    const doc = (await get(`/api/v1/documents/${body.id}`)).json();
    expect(doc).toMatchObject({ id: body.id, status: 'completed', client_ref: 'edo-1', confidence: 1, data: upd });
    expect(doc.source).toEqual({ kind: 'upload', content: 'formalized_xml' });
    const list = (await get('/api/v1/documents?type=upd')).json();
    expect(list.data.map((d: { id: string }) => d.id)).toEqual([body.id]);
    expect((await get(`/api/v1/documents/${body.id}/export`)).json()).toEqual(upd);
    const acc = (await get(`/api/v1/documents/${body.id}/export?format=accounting`)).json();
    expect(acc).toMatchObject({ document_id: body.id, confidence: 1, totals: { amount_with_nds: upd.totals.amount_with_nds, currency: 'RUB' } });
    expect((await get(`/api/v1/documents/${body.id}`, h.keyB)).statusCode).toBe(404);
  });

  it('keeps the file byte for byte as received, not as a page; DELETE removes it with the record', async () => {
    const body = (await post(xmlForm([{ bytes: updXml }]))).json();
    expect((await h.files.get(sourceFileKey(body.id))).equals(updXml)).toBe(true);
    expect((await h.db.query<{ files: string[] }>('SELECT files FROM documents WHERE id = $1', [body.id]))[0]!.files).toEqual([]);
    const del = await h.app.inject({ method: 'DELETE', url: `/api/v1/documents/${body.id}`, headers: { 'x-api-key': h.keyA } });
    expect(del.statusCode).toBe(200);
    await expect(h.files.get(sourceFileKey(body.id))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('an invoice (СЧФ) is detected as invoice; a page upload is source upload/pages', async () => {
    const inv = asJson(truth(24, 'invoice'));
    const res = await post(xmlForm([{ bytes: writeFormalizedUpd(inv, 'invoice', WRITE_OPTIONS).xml, type: 'text/xml; charset=windows-1251' }]));
    expect(res.json()).toMatchObject({ document_type: 'invoice', data: inv });
    const page = await post(xmlForm([{ bytes: await pngPage(), type: 'image/png', name: 'p.png' }]));
    expect(page.statusCode).toBe(202);
    await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
    expect((await get(`/api/v1/documents/${page.json().id}`)).json().source).toEqual({ kind: 'upload', content: 'pages' });
  });

  it('is recognised by its first byte when sent as application/octet-stream', async () => {
    const res = await post(xmlForm([{ bytes: updXml, type: 'application/octet-stream' }]));
    expect(res.statusCode).toBe(200);
  });

  it('schedules the callback with the completed payload', async () => {
    const res = await post(xmlForm([{ bytes: updXml }], { callback_url: 'https://example.test/hook' }));
    const rows = await h.db.query<{ document_id: string; payload: { event: string; confidence: number } }>(
      'SELECT document_id, payload FROM callbacks',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ document_id: res.json().id, payload: { event: 'document.completed', confidence: 1 } });
  });

  it('real validation findings are warnings; confidence stays 1.00 (every value is the file’s)', async () => {
    const off = { ...upd, totals: { ...upd.totals, amount_with_nds: (upd.totals.amount_with_nds ?? 0) + 1 } };
    const res = await post(xmlForm([{ bytes: writeFormalizedUpd(off, 'upd', WRITE_OPTIONS).xml }]));
    expect(res.statusCode).toBe(200);
    expect(res.json().confidence).toBe(1);
    expect(res.json().warnings.map((w: { field: string }) => w.field)).toContain('totals.amount_with_nds');
  });
});

describe('a bad formalized file is 422 VALIDATION_ERROR with the reason, nothing stored', () => {
  const text = iconv.decode(updXml, 'win1251');
  const cases: [string, Buffer, RegExp][] = [
    ['malformed', Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Файл><Документ></Файл>'), /\(malformed\)/],
    [
      'wrong encoding (windows-1251 bytes declared UTF-8)',
      Buffer.from(updXml.toString('latin1').replace('windows-1251', 'UTF-8'), 'latin1'),
      /\(encoding\)/,
    ],
    ['unknown КНД', iconv.encode(text.replace('КНД="1115131"', 'КНД="1175012"'), 'win1251'), /\(unknown_knd\).*1175012/],
    ['a DTD', iconv.encode(text.replace('?>', '?><!DOCTYPE Файл [<!ENTITY x SYSTEM "file:///etc/passwd">]>'), 'win1251'), /\(dtd_forbidden\)/],
    ['oversized (over 5 MiB)', Buffer.concat([updXml, Buffer.alloc(5 * 1024 * 1024, 0x20)]), /\(too_large\)/],
  ];
  for (const [what, bytes, reason] of cases) {
    it(what, async () => {
      const res = await post(xmlForm([{ bytes }]));
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(/^images\[0\]: "upd\.xml" is not a readable formalized document/);
      expect(res.json().error.message).toMatch(reason);
      expect(await count()).toBe(0);
      expect(await folders()).toEqual([]);
    });
  }

  it('XML with another file', async () => {
    const res = await post(xmlForm([{ bytes: updXml }, { bytes: await pngPage(), type: 'image/png', name: 'p.png' }]));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/^images\[\]: a formalized XML file is sent alone/);
    expect(await count()).toBe(0);
  });

  it('a document_type other than the file’s', async () => {
    const res = await post(xmlForm([{ bytes: updXml }], { document_type: 'invoice' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/^document_type: "upd\.xml" is a formalized upd \(Функция СЧФДОП\), not invoice/);
    expect(await count()).toBe(0);
  });
});

describe('a formalized ТОРГ-12 upload (DP_TOVTORGPR, КНД 1175010)', () => {
  it('is a completed torg12 record read exactly, exported to accounting with its totals', async () => {
    const res = await post(xmlForm([{ bytes: torg12Xml(), name: 'torg12.xml' }], { document_type: 'torg12' }));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'completed', document_type: 'torg12', confidence: 1, data: { document: { number: 'ТН-0457' } } });
    expect(body.data.totals).toEqual({ amount_without_nds: 5500, nds_amount: 900, amount_with_nds: 6400 });
    const acc = (await get(`/api/v1/documents/${body.id}/export?format=accounting`)).json();
    expect(acc).toMatchObject({ document_type: 'torg12', totals: { amount_with_nds: 6400 } });
  });

  it('asked for as a UPD is 422 naming its КНД; nothing is stored', async () => {
    const res = await post(xmlForm([{ bytes: torg12Xml(), name: 'torg12.xml' }], { document_type: 'upd' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toBe('document_type: "torg12.xml" is a formalized torg12 (КНД 1175010), not upd; send auto or torg12');
    expect(await count()).toBe(0);
    expect(await folders()).toEqual([]);
  });
});

describe('Idempotency-Key with a formalized file', () => {
  it('a repeat answers the first document with 200', async () => {
    const send = () =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/recognize',
        headers: { 'x-api-key': h.keyA, 'idempotency-key': 'xml-1' },
        payload: xmlForm([{ bytes: updXml }]),
      });
    const a = await send();
    const b = await send();
    expect(b.statusCode).toBe(200);
    expect(b.json().id).toBe(a.json().id);
    expect(await count()).toBe(1);
    expect(await folders()).toEqual([a.json().id]);
  });
});

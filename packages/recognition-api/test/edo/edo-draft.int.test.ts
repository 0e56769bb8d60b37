import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFormalizedUpd } from '../../src/formalized/index.js';
import { makeData } from '../fixtures.js';
import { paperData as paperDataOf, recognisedPaper as recognisedPaperOf, SIGNER } from './edo-draft-fixtures.js';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

// GET /documents/{id}/export?format=upd-xml and POST /documents/{id}/edo-draft (issue 24): a recognised paper UPD
// leaves as the 5.03 seller title and becomes a draft in the simulator.

let e: EdoHarness;
beforeAll(async () => {
  e = await makeEdoHarness();
});
afterAll(async () => e.close());
beforeEach(async () => {
  await e.h.db.query('DELETE FROM documents');
});

const paperData = () => paperDataOf(e);
const recognisedPaper = () => recognisedPaperOf(e);

describe('export?format=upd-xml', () => {
  it('writes the seller title 5.03 that reads back to the same data', async () => {
    const id = await recognisedPaper();
    const q = new URLSearchParams({ format: 'upd-xml', sender_id: '2BM-1111', recipient_id: '2BM-2222', ...SIGNER });
    const res = await e.inject('GET', `/api/v1/documents/${id}/export?${q}`, { key: e.keys.both });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=windows-1251');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ON_NSCHFDOPPR_2BM-2222_2BM-1111_\d{8}_[0-9a-f-]+\.xml"$/);
    expect(res.headers['x-schema-validated']).toBe('false');
    const back = readFormalizedUpd(res.rawPayload);
    expect(back).toMatchObject({ documentType: 'upd', formatVersion: '5.03', function: 'СЧФДОП' });
    expect(back.data).toEqual(paperData());
  });

  it('refuses a missing signer, missing participant ids or transfer content with 422 naming the parameter', async () => {
    const id = await recognisedPaper();
    const url = (q: Record<string, string>) => `/api/v1/documents/${id}/export?${new URLSearchParams({ format: 'upd-xml', ...q })}`;
    const full = { sender_id: '2BM-1111', recipient_id: '2BM-2222', ...SIGNER };
    for (const [drop, param] of [
      ['signer', 'signer'],
      ['sender_id', 'sender_id'],
      ['operation', 'operation'],
    ] as const) {
      const q = { ...full } as Record<string, string>;
      delete q[drop];
      const res = await e.inject('GET', url(q), { key: e.keys.both });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.message.startsWith(`${param}:`)).toBe(true);
    }
  });
});

describe('edo-draft', () => {
  it('posts the recognised UPD as a draft to the buyer found by INN/KPP; the simulator stores it', async () => {
    const id = await recognisedPaper();
    const res = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: SIGNER });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ document_id: id, mode: 'draft', to_box_id: e.sim.state.counteragents[0]!.boxGuid, schema_validated: false });
    const stored = e.sim.state.documents.find((d) => d.messageId === out.message_id && d.entityId === out.entity_id)!;
    expect(stored).toMatchObject({ isDraft: true, state: 'Draft', typeNamedId: 'UniversalTransferDocument', func: 'СЧФДОП', number: 'УПД-17' });
    expect(readFormalizedUpd(stored.content).data).toEqual(paperData());
    // A repeat posts nothing new: the operation id is the document's.
    const again = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: SIGNER });
    expect(again.json().message_id).toBe(out.message_id);
  });

  it('refuses confidence below 0.80 unless checked; refuses a document whose seller is not our organization', async () => {
    const id = await recognisedPaper();
    await e.h.db.query('UPDATE documents SET confidence = 0.65 WHERE id = $1', [id]);
    const refused = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: SIGNER });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('MANUAL_CHECK_REQUIRED');
    const checked = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: { ...SIGNER, checked: true } });
    expect(checked.statusCode, checked.body).toBe(200);

    await e.h.db.query(`UPDATE documents SET data = $2::json WHERE id = $1`, [id, JSON.stringify(makeData())]);
    const foreign = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: { ...SIGNER, checked: true } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.message).toMatch(/^data\.seller\.inn: /);
  });

  it('needs both scopes', async () => {
    const id = await recognisedPaper();
    const res = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.recognition, body: SIGNER });
    expect(res.statusCode).toBe(403);
  });
});

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFormalizedUpd } from '../../src/formalized/index.js';
import { makeItem } from '../fixtures.js';
import { paperData, recognisedPaper, SIGNER } from './edo-draft-fixtures.js';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

// Issue 24, "a recognised paper UPD becomes a draft in the simulator that the simulator's own XSD check accepts", run
// always: the simulator checks posted UPDs against a small schema of our own that covers the root and every element
// the writer always emits (fixtures/upd-5.03-writer-mini.xsd). The same flow under the official FNS schema is
// edo-draft.xsd.test.ts, collected only where RECOGNITION_UPD_XSD names it.
const WRITER_MINI = fileURLToPath(new URL('../formalized/fixtures/upd-5.03-writer-mini.xsd', import.meta.url));

let e: EdoHarness;
beforeAll(async () => {
  e = await makeEdoHarness({ sim: { updXsd: WRITER_MINI } });
});
afterAll(async () => e.close());
beforeEach(async () => {
  await e.h.db.query('DELETE FROM documents');
});

describe('edo-draft with the simulator checking posted UPDs against an XSD', () => {
  it('a recognised paper UPD passes the check and is stored as a draft', async () => {
    const before = e.sim.state.documents.length;
    const id = await recognisedPaper(e);
    const res = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: SIGNER });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(e.sim.state.documents.length).toBe(before + 1);
    const stored = e.sim.state.documents.find((d) => d.messageId === out.message_id && d.entityId === out.entity_id)!;
    expect(stored).toMatchObject({ isDraft: true, typeNamedId: 'UniversalTransferDocument', func: 'СЧФДОП' });
    expect(readFormalizedUpd(stored.content).data).toEqual(paperData(e));
  });

  it('the check runs in the flow: a line the schema refuses (item name over 1000 characters) is refused and not stored', async () => {
    const before = { docs: e.sim.state.documents.length, events: e.sim.state.events.length };
    const long = paperData(e, { items: [makeItem({ name: `Плитка ${'к'.repeat(1000)}` })] });
    long.totals = {
      amount_without_nds: long.items[0]!.amount_without_nds,
      nds_amount: long.items[0]!.nds_amount,
      amount_with_nds: long.items[0]!.amount_with_nds,
    };
    const id = await recognisedPaper(e, long);
    const res = await e.inject('POST', `/api/v1/documents/${id}/edo-draft`, { key: e.keys.both, body: SIGNER });
    // The gateway passes the operator's 400 on as 422 EDO_BAD_REQUEST with Diadoc's code and text.
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('EDO_BAD_REQUEST');
    expect(res.json().error.message).toMatch(
      /Diadoc answered 400 InvalidXml: .*not valid against the format's XSD: line \d+: Element 'СведТов', attribute 'НаимТов': \[facet 'maxLength'\]/,
    );
    expect(e.sim.requests.at(-1)).toBe('POST /V3/PostMessage');
    expect(e.sim.state.documents.length).toBe(before.docs);
    expect(e.sim.state.events.length).toBe(before.events);
  });
});

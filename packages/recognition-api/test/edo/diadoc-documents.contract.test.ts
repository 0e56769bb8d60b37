import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_DOCUMENTS } from '@app/edo-simulator';
import { ticksToIso } from '../../src/edo/diadoc/diadoc-json.js';
import { makeEdoRig, rejection, type EdoRig } from './edo-fixtures.js';

type Doc = Record<string, unknown> & { IndexKey: string; MessageId: string; EntityId: string };
let rig: EdoRig;
beforeAll(async () => (rig = await makeEdoRig()));
afterAll(async () => rig.close());

async function allPages(filterCategory: string, count: number): Promise<{ docs: Doc[]; pages: number }> {
  const docs: Doc[] = [];
  let afterIndexKey: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await rig.operator.listDocuments({ filterCategory, count, afterIndexKey });
    docs.push(...(page.Documents as Doc[]));
    if (!page.HasMoreResults) return { docs, pages };
    afterIndexKey = docs.at(-1)!.IndexKey;
  }
}

describe('Diadoc adapter against the simulator: documents (GetDocuments, GetDocument, GetEntityContent)', () => {
  it('pages GetDocuments by afterIndexKey to the end: every inbound and outbound document once, in order', async () => {
    const inbound = await allPages('Any.Inbound', 5);
    const outbound = await allPages('Any.Outbound', 5);
    expect(inbound.pages).toBe(3);
    expect(inbound.docs).toHaveLength(SEEDED_DOCUMENTS / 2);
    expect(outbound.docs).toHaveLength(SEEDED_DOCUMENTS / 2);
    const ids = [...inbound.docs, ...outbound.docs].map((d) => d.EntityId);
    expect(new Set(ids).size).toBe(SEEDED_DOCUMENTS);
    const keys = inbound.docs.map((d) => d.IndexKey);
    expect([...keys].sort()).toEqual(keys);
    expect(inbound.docs.every((d) => d.DocumentDirection === 'Inbound')).toBe(true);
  });

  it('keeps 64-bit ticks exact and adds their ISO twin with 7 fractional digits', async () => {
    const page = await rig.operator.listDocuments({ filterCategory: 'Any.Outbound', count: 1 });
    const doc = (page.Documents as Doc[])[0]!;
    const sim = rig.sim.state.documents.find((d) => d.entityId === doc.EntityId)!;
    expect(doc.SendTimestampTicks).toBe(sim.sendTicks);
    expect(typeof doc.SendTimestampTicks).toBe('bigint');
    expect(doc.SendTimestamp).toBe(ticksToIso(sim.sendTicks));
    expect(doc.SendTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    expect(doc.DeliveryTimestamp).toBe(ticksToIso(sim.deliveryTicks));
  });

  it('translates timestampFrom (ISO, ms precision) into timestampFromTicks: documents from that instant on', async () => {
    const all = (await allPages('Any.Inbound', 100)).docs;
    const from = new Date(`${String(all[4]!.DeliveryTimestamp).slice(0, 23)}Z`);
    const page = await rig.operator.listDocuments({ filterCategory: 'Any.Inbound', timestampFrom: from });
    expect((page.Documents as Doc[]).map((d) => d.EntityId)).toEqual(all.slice(4).map((d) => d.EntityId));
  });

  it('filters by document dates (dd.MM.yyyy), counteragent and filterCategory status', async () => {
    const cp = rig.sim.state.counteragents[0]!;
    const byCp = await rig.operator.listDocuments({ filterCategory: 'Any.Inbound', counteragentBoxId: cp.boxGuid });
    const expected = rig.sim.state.documents.filter((d) => d.direction === 'Inbound' && d.counteragent === cp).length;
    expect((byCp.Documents as Doc[]).length).toBe(expected);
    const dated = await rig.operator.listDocuments({ filterCategory: 'Any.Outbound', fromDocumentDate: '01.01.2026', toDocumentDate: '31.12.2026' });
    expect((dated.Documents as Doc[]).every((d) => String(d.DocumentDate).endsWith('2026'))).toBe(true);
    const notFinished = await rig.operator.listDocuments({ filterCategory: 'Any.InboundNotFinished' });
    expect((notFinished.Documents as Doc[]).length).toBe(
      rig.sim.state.documents.filter((d) => d.direction === 'Inbound' && d.state !== 'Finished').length,
    );
  });

  it('reads one document and streams its content with the document file name', async () => {
    const sim = rig.sim.state.documents[2]!;
    const doc = await rig.operator.getDocument(sim.messageId, sim.entityId);
    expect(doc.FileName).toBe(sim.fileName);
    expect(Buffer.from(String((doc.Content as { Data: string }).Data), 'base64').equals(sim.content)).toBe(true);
    const content = await rig.operator.getContent(sim.messageId, sim.entityId);
    expect(content.fileName).toBe(sim.fileName);
    expect(content.contentType).toBe('application/octet-stream');
    const chunks: Buffer[] = [];
    for await (const c of content.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(sim.content)).toBe(true);
    expect(Buffer.concat(chunks).toString('utf8')).toContain(`ИННЮЛ="${rig.sim.state.ours.inn}"`);
  });

  it('maps an unknown document to EDO_NOT_FOUND with the operator code and text', async () => {
    const err = await rejection(rig.operator.getDocument('11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'));
    expect(err.code).toBe('EDO_NOT_FOUND');
    expect(err.message).toContain('Diadoc answered 404 DocumentNotFound');
  });

  it("maps the operator's 400 (a filterCategory it refuses) to EDO_BAD_REQUEST naming its code", async () => {
    const err = await rejection(rig.operator.listDocuments({ filterCategory: 'AnyInvoiceDocumentType.Inbound' }));
    expect(err.code).toBe('EDO_BAD_REQUEST');
    expect(err.message).toContain('400 InvalidFilterCategory');
  });
});

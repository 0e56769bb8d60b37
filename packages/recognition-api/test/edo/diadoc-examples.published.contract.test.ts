import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEdoSimulator } from '@app/edo-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiadocOperator } from '../../src/edo/diadoc/diadoc.http.js';
import { parseDiadocJson } from '../../src/edo/diadoc/diadoc-json.js';
import { stringifyJson } from '../../src/edo/operator-json.js';
import type { AttachmentInput } from '../../src/edo/edo.port.js';
import { type Answer, missingPaths, type startReplayServer, startReplayGateway } from './diadoc-replay.js';
import { makeEdoRig, type EdoRig } from './edo-fixtures.js';

/**
 * Diadoc's own published examples (DIADOC_EXAMPLES_DIR, sources in its SOURCES.md) replayed through the
 * adapter and the gateway routes with a tiny local server instead of the simulator; then the simulator is held to
 * the same examples. Where Diadoc publishes no example, answers are composed from published parts only.
 */
type Obj = Record<string, unknown>;
// The examples are third-party files kept outside the repository (vitest.config.ts: DIADOC_EXAMPLES_DIR).
const EXAMPLES = process.env.DIADOC_EXAMPLES_DIR ?? '';
const text = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
const example = (name: string) => parseDiadocJson(text(name)) as Obj;

/** The box of the published GetDocuments request (`boxId=db32772b-…`). */
const BOX = 'db32772b-9256-49a8-a133-fda593fda38a';
const documents = example('get-documents.json');
const doc = (documents.Documents as Obj[])[0]!;
const organization = (example('get-counteragents.json').Counteragents as Obj[])[0]!.Organization as Obj;
const published = example('post-message.request.json');
const publishedAttachment = (published.DocumentAttachments as Obj[])[0]!;
/** `Message` (proto/Message.rst) composed from the published ids, Document and Entity. */
const message = {
  MessageId: doc.MessageId,
  TimestampTicks: doc.SendTimestampTicks,
  FromBoxId: `${BOX.replace(/-/g, '')}@diadoc.ru`,
  ToBoxId: doc.CounteragentBoxId,
  IsDraft: false,
  Entities: [
    { EntityType: 'Attachment', EntityId: doc.EntityId, AttachmentType: 'Invoice', DocumentInfo: doc },
    example('entity-invoice-confirmation.json'),
  ],
};
/** `BoxEventList` (proto/BoxEvent.rst) with the published message; the EventId is a GUID, the IndexKey opaque. */
const events = {
  Events: [{ EventId: 'c2a7f3d4-7b5e-4f1a-9a0e-3c1d2b4a5e6f', IndexKey: 'CNymUlqSJxhMJa4J0FyCQITefMtG2G+C', Message: message }],
  TotalCount: 1,
  TotalCountType: 'Equal',
};

const ANSWERS: Record<string, Answer> = {
  'GET /V3/GetDocuments': { json: text('get-documents.json') },
  'GET /V8/GetNewEvents': { json: stringifyJson(events) },
  'POST /V3/PostMessage': { json: stringifyJson(message) },
  'GET /GetEmployees': { json: text('get-employees.json') },
  'GET /GetMyEmployee': { json: text('get-my-employee.json') },
  'GET /GetOrganizationsByInnKpp': { json: stringifyJson({ Organizations: [organization] }) },
  'GET /V3/GetCounteragents': { json: text('get-counteragents.json') },
};
/** The published PostMessage attachment with real base64 in place of the shortened one (`…` is not base64). */
const content = Buffer.from(
  '<?xml version="1.0" encoding="windows-1251"?><Файл ИдФайл="ON_NSCHFDOPPR_1"><Документ><СвСчФакт НомерДок="432634" ДатаДок="26.08.2015"/></Документ></Файл>',
).toString('base64');
const signature = randomBytes(64).toString('base64');
const attachment: AttachmentInput = {
  TypeNamedId: { Name: String(publishedAttachment.TypeNamedId), Version: String(publishedAttachment.Version) },
  Function: String(publishedAttachment.Function),
  SignedContent: { Content: content, Signature: signature },
};
/** The published request body with its placeholders filled as the gateway fills them. */
const expectedRequest = (to: string) => ({
  ...published,
  FromBoxId: BOX,
  ToBoxId: to,
  DocumentAttachments: [{ ...publishedAttachment, SignedContent: { Content: content, Signature: signature } }],
});

let replay: Awaited<ReturnType<typeof startReplayServer>>;
let op: DiadocOperator;
let gateway: Awaited<ReturnType<typeof startReplayGateway>>;
beforeAll(async () => {
  gateway = await startReplayGateway(ANSWERS, BOX);
  ({ replay, op } = gateway);
});
afterAll(async () => gateway.close());
const call = (method: string, url: string, body?: unknown) => gateway.call(method, url, body);

describe("Diadoc's published examples through the adapter", () => {
  it('GetDocuments: the published request shape, ticks exact, the 214-character IndexKey usable as the next cursor', async () => {
    const list = await op.listDocuments({ filterCategory: 'Any.InboundNotFinished' });
    const sent = replay.last('GET /V3/GetDocuments')!;
    expect(Object.fromEntries(sent.query)).toEqual({ boxId: BOX, filterCategory: 'Any.InboundNotFinished' });
    expect(sent.headers.accept).toBe('application/json');
    const got = (list.Documents as Obj[])[0]!;
    expect(got.CreationTimestampTicks).toBe(635802325536912186n);
    expect(got.SendTimestamp).toBe('2015-10-12T07:42:33.6912186Z');
    await op.listDocuments({ filterCategory: 'Any.InboundNotFinished', afterIndexKey: String(got.IndexKey) });
    expect(replay.last('GET /V3/GetDocuments')!.query.get('afterIndexKey')).toBe(doc.IndexKey);
  });

  it('GetEmployees and GetMyEmployee: page/count as in the published request; answers as published', async () => {
    const list = await op.listEmployees(2, 10);
    expect(Object.fromEntries(replay.last('GET /GetEmployees')!.query)).toEqual({ boxId: BOX, page: '2', count: '10' });
    expect(list.TotalCount).toBe(61);
    const me = await op.getMyEmployee();
    expect((me.CreationTimestamp as Obj).Ticks).toBe(636766476176953926n);
  });

  it('PostMessage: the request body is the published one (placeholders filled), signed mode adds nothing', async () => {
    const to = String(doc.CounteragentBoxId);
    const msg = await op.sendDocument({ ToBoxId: to, DocumentAttachments: [attachment], mode: 'signed', operationId: 'op-published' });
    const sent = replay.last('POST /V3/PostMessage')!;
    expect(sent.body).toEqual(expectedRequest(to));
    expect(sent.query.get('operationId')).toBe('op-published');
    expect(msg.MessageId).toBe(doc.MessageId);
  });

  it('GetNewEvents and GetOrganizationsByInnKpp: query names as documented; answers passed through', async () => {
    const ev = await op.getEvents({ afterEventId: '3e0f6a52-0000-4000-8000-000000000001', limit: 5 });
    expect(Object.fromEntries(replay.last('GET /V8/GetNewEvents')!.query)).toEqual({
      boxId: BOX,
      afterEventId: '3e0f6a52-0000-4000-8000-000000000001',
      limit: '5',
    });
    expect((ev.Events as Obj[])[0]!.IndexKey).toBe('CNymUlqSJxhMJa4J0FyCQITefMtG2G+C');
    const orgs = await op.searchOrganizations('9147414342', '757645784');
    expect(Object.fromEntries(replay.last('GET /GetOrganizationsByInnKpp')!.query)).toEqual({ inn: '9147414342', kpp: '757645784' });
    expect((orgs.Organizations as Obj[])[0]!.FullName).toBe('Ромашка');
  });

  it.each([
    [400, 'EDO_BAD_REQUEST'],
    [403, 'EDO_FORBIDDEN'],
    [404, 'EDO_NOT_FOUND'],
    [409, 'EDO_CONFLICT'],
    [405, 'EDO_BAD_GATEWAY'],
  ])('an error answer %i (plain text + X-Diadoc-ErrorCode) is %s with both in the message', async (status, code) => {
    replay.next('GET /GetMyEmployee', { status, body: 'Текст ошибки Диадока', headers: { 'x-diadoc-errorcode': 'SomeDiadocCode' } });
    const err = await op.getMyEmployee().then(
      () => undefined,
      (e: { code: string; message: string }) => e,
    );
    expect(err?.code).toBe(code);
    expect(err?.message).toContain(`Diadoc answered ${status} SomeDiadocCode: Текст ошибки Диадока`);
  });
});

describe("Diadoc's published examples through the HTTP routes", () => {
  it('GET /edo/documents writes the published ticks digit for digit and takes the 214-character IndexKey back', async () => {
    const first = await call('GET', '/api/v1/edo/documents?filterCategory=Any.InboundNotFinished');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('"CreationTimestampTicks":635802325536912186');
    const next = await call('GET', `/api/v1/edo/documents?filterCategory=Any.InboundNotFinished&afterIndexKey=${doc.IndexKey}`);
    expect(next.statusCode).toBe(200);
    expect(replay.last('GET /V3/GetDocuments')!.query.get('afterIndexKey')).toBe(doc.IndexKey);
  });

  it('GET /edo/events pages by the EventId and by the IndexKey of the event it answered', async () => {
    const page = (await call('GET', '/api/v1/edo/events')).json();
    const ev = page.Events[0];
    await call('GET', `/api/v1/edo/events?afterEventId=${ev.EventId}`);
    expect(replay.last('GET /V8/GetNewEvents')!.query.get('afterEventId')).toBe(ev.EventId);
    await call('GET', `/api/v1/edo/events?afterEventId=${encodeURIComponent(ev.IndexKey)}`);
    expect(replay.last('GET /V8/GetNewEvents')!.query.get('afterIndexKey')).toBe(ev.IndexKey);
  });

  it('POST /edo/documents/send posts the published body', async () => {
    const to = String(doc.CounteragentBoxId);
    const res = await call('POST', '/api/v1/edo/documents/send', { ToBoxId: to, DocumentAttachments: [attachment] });
    expect(res.statusCode).toBe(200);
    expect(replay.last('POST /V3/PostMessage')!.body).toEqual(expectedRequest(to));
    expect(res.json()).toMatchObject({ MessageId: doc.MessageId, Mode: 'signed' });
  });

  it('employees, organization search and counteragents answer as published; an error body keeps its code', async () => {
    expect((await call('GET', '/api/v1/edo/employees?page=2&count=10')).json().TotalCount).toBe(61);
    expect((await call('GET', '/api/v1/edo/employees/me')).body).toContain('"Ticks":636766476176953926');
    const orgs = (await call('GET', '/api/v1/edo/organizations/search?inn=9147414342&kpp=757645784')).json();
    expect(orgs.Organizations[0].Boxes[0].BoxId).toBe('2a208d032a604f6491b1b7aad54cfaf3@diadoc.ru');
    const cps = await call('GET', '/api/v1/edo/counteragents?counteragentStatus=IsMyCounteragent');
    expect(cps.body).toContain('"LastEventTimestampTicks":638585445988979088');
    replay.next('GET /GetEmployee', { status: 404, body: 'Employee not found', headers: { 'x-diadoc-errorcode': 'EmployeeNotFound' } });
    const missing = await call('GET', '/api/v1/edo/employees/5c573ff4-d336-4956-8261-26d0576c4718');
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'EDO_NOT_FOUND']);
    expect(missing.json().error.message).toContain('404 EmployeeNotFound: Employee not found');
  });
});

describe('the simulator answers with every field of the published examples and takes the published request', () => {
  let rig: EdoRig;
  let sim: RunningEdoSimulator;
  beforeAll(async () => {
    rig = await makeEdoRig();
    sim = rig.sim;
  });
  afterAll(async () => rig.close());

  it('GetDocuments, GetEmployees, GetMyEmployee, GetCounteragents, GetOrganizationsByInnKpp', async () => {
    const docs = await rig.operator.listDocuments({ filterCategory: 'Invoice.Inbound' });
    // "Content": "lores ipsum" is the docs' placeholder (proto/Document.rst: Content {Size, Data}); InvoiceMetadata
    // is filled only for invoices of the old workflow; the rest must be there with the same types.
    const { Content: _c, InvoiceMetadata: _i, ...docFields } = doc;
    expect(missingPaths({ TotalCount: 1, Documents: [docFields] }, docs)).toEqual([]);
    expect(missingPaths(example('get-employees.json'), await rig.operator.listEmployees(1, 10))).toEqual([]);
    expect(missingPaths(example('get-my-employee.json'), await rig.operator.getMyEmployee())).toEqual([]);
    expect(missingPaths(example('get-counteragents.json'), await rig.operator.listCounteragents({}))).toEqual([]);
    const cp = sim.state.counteragents[0]!;
    expect(missingPaths({ Organizations: [organization] }, await rig.operator.searchOrganizations(cp.inn, cp.kpp))).toEqual([]);
  });

  it('PostMessage takes the published request (UniversalTransferDocument utd970_05_02_01, Function СЧФДОП, a signature)', async () => {
    const msg = await rig.operator.sendDocument({
      ToBoxId: sim.state.counteragents[0]!.boxGuid,
      DocumentAttachments: [attachment],
      mode: 'signed',
      operationId: 'sim-published',
    });
    expect((msg.Entities as Obj[]).find((e) => e.EntityType === 'Attachment')).toMatchObject({ AttachmentType: 'UniversalTransferDocument' });
  });
});

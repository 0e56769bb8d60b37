import { existsSync, readFileSync } from 'node:fs';
import type { RunningEdoSimulator } from '@app/edo-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/edo/operator-json.js';
import type { AttachmentInput } from '../../src/edo/edo.port.js';
import { type Answer, missingPaths, startReplayGateway } from './diadoc-replay.js';
import { COPY_PATH, jsonBlocksByHeading, loadDiadocReference, NOTE_PATH } from './diadoc-reference.js';
import { type EdoRig, makeEdoRig } from './edo-fixtures.js';

/**
 * The JSON examples of the steering side's Diadoc reference note (`../shared/reference/diadoc-api.md` §6), expanded
 * mechanically (diadoc-reference.ts), replayed through the adapter and the gateway's HTTP routes with a local server
 * in place of Diadoc; then the simulator's answers to the same calls are held to the same shape. Runs on every
 * pass: from the note beside the repository when it is there, else from its committed copy (fixtures/).
 */
type Obj = Record<string, unknown>;
const ref = loadDiadocReference();
const doc = (ref.getDocuments.Documents as Obj[])[0]!;
const events = ref.getNewEvents.Events as Obj[];
const employee = (ref.getEmployees.Employees as Obj[])[0]!;
const counteragent = (ref.getCounteragents.Counteragents as Obj[])[0]!;
const org = ref.organization;
const orgBox = (org.Boxes as Obj[])[0]!;
/** Our box is the organization's box, so the health check (is the box among the user's?) must normalise ids. */
const BOX = String(orgBox.BoxIdGuid);
const TO = String(doc.CounteragentBoxId);
const content = Buffer.from('%PDF-1.4 reference example').toString('base64');
/** The note's PostMessage request with its placeholders filled as the gateway fills them. */
const request = ref.postMessageRequest({ box: BOX, 'cp box': TO, b64: content });
const reqAttachment = (request.DocumentAttachments as Obj[])[0]!;
/** The note's attachment in our spec's shape: `TypeNamedId {Name, Version}` (the spec requires a Version). */
const attachment: AttachmentInput = {
  TypeNamedId: { Name: String(reqAttachment.TypeNamedId), Version: 'v1' },
  SignedContent: reqAttachment.SignedContent as AttachmentInput['SignedContent'],
  Metadata: reqAttachment.Metadata as AttachmentInput['Metadata'],
  Comment: String(reqAttachment.Comment),
  CustomDocumentId: String(reqAttachment.CustomDocumentId),
};
/** What Diadoc must receive: the note's body plus the `Version` our spec carries (and the route's defaults). */
const expectedBody = (extraMetadata: Obj[] = []) => ({
  ...request,
  DocumentAttachments: [{ ...reqAttachment, Version: 'v1', Metadata: [...(reqAttachment.Metadata as Obj[]), ...extraMetadata] }],
});

const ANSWERS: Record<string, Answer> = {
  'GET /V3/GetDocuments': { json: stringifyJson(ref.getDocuments) },
  'POST /V3/PostMessage': { json: stringifyJson(ref.message) },
  'GET /V8/GetNewEvents': { json: stringifyJson(ref.getNewEvents) },
  'GET /GetEmployees': { json: stringifyJson(ref.getEmployees) },
  'GET /GetMyEmployee': { json: stringifyJson(employee) },
  'GET /V3/GetCounteragents': { json: stringifyJson(ref.getCounteragents) },
  'GET /GetMyOrganizations': { json: stringifyJson({ Organizations: [org] }) },
  'GET /GetOrganizationsByInnKpp': { json: stringifyJson({ Organizations: [org] }) },
  'GET /GetOrganization': { json: stringifyJson(org) },
};

let gw: Awaited<ReturnType<typeof startReplayGateway>>;
beforeAll(async () => {
  gw = await startReplayGateway(ANSWERS, BOX);
});
afterAll(async () => gw.close());
const sent = (key: string) => gw.replay.last(key)!;

describe('the expansion of the note', () => {
  it('fills each elision to the real shape and leaves no ellipsis or placeholder', () => {
    expect(doc.IndexKey).toMatch(/^2B77[0-9A-F]{210}$/);
    expect(counteragent.IndexKey).toMatch(/^4062[0-9A-F]{44}$/);
    for (const e of events) expect(e.IndexKey).toMatch(/^[A-Za-z0-9+/]{32}$/);
    expect(doc.MessageId).toMatch(/^bbcedb0d-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(doc.FromDepartmentId).toBe('00000000-0000-0000-0000-000000000000');
    // `2a20…@diadoc.ru` and `2a208d03-…` are one box printed twice
    expect(String(orgBox.BoxId).replace('@diadoc.ru', '')).toBe(BOX.replace(/-/g, ''));
    const [attachmentEntity, signature] = ref.message.Entities as Obj[];
    expect(signature!.ParentEntityId).toBe(attachmentEntity!.EntityId);
    expect(attachmentEntity!.DocumentInfo).toEqual(doc);
    expect(events[0]!.Message).toEqual(ref.message);
    for (const value of [ref.getDocuments, ref.message, ref.getNewEvents, ref.getEmployees, ref.getCounteragents, request])
      expect(stringifyJson(value)).not.toMatch(/…|"<[^"]*>"/);
  });

  it('the committed copy holds the same json blocks as the note (when the note is on this machine)', () => {
    // Whitespace aside: the repository's formatter lays the copy's JSON out on more lines than the note does.
    const blocks = (path: string) =>
      [...jsonBlocksByHeading(readFileSync(path, 'utf8')).entries()].map(([heading, b]) => [heading, b.map((t) => t.replace(/\s+/g, ''))]);
    const copy = blocks(COPY_PATH);
    expect(copy.map(([heading]) => heading)).toEqual(expect.arrayContaining(['GetDocuments', 'GetNewEvents', 'GetEmployees', 'GetCounteragents']));
    if (existsSync(NOTE_PATH)) expect(copy, `refresh ${COPY_PATH} from ${NOTE_PATH}`).toEqual(blocks(NOTE_PATH));
  });

  it('fails with the path and DIADOC_REFERENCE when the note is absent', () => {
    expect(() => loadDiadocReference('/nonexistent/diadoc-api.md')).toThrow(/not found at \/nonexistent\/diadoc-api\.md.*DIADOC_REFERENCE/);
  });
});

describe('the reference examples through the adapter', () => {
  it('GetDocuments: documented query names, ticks exact, the 214-character IndexKey sent back verbatim', async () => {
    const list = await gw.op.listDocuments({ filterCategory: 'Any.InboundNotFinished' });
    expect(Object.fromEntries(sent('GET /V3/GetDocuments').query)).toEqual({ boxId: BOX, filterCategory: 'Any.InboundNotFinished' });
    const got = (list.Documents as Obj[])[0]!;
    expect(got.DeliveryTimestampTicks).toBe(635802325696852440n);
    expect(got.SendTimestamp).toBe('2015-10-12T07:42:33.6912186Z');
    await gw.op.listDocuments({ filterCategory: 'Any.InboundNotFinished', afterIndexKey: String(got.IndexKey) });
    expect(sent('GET /V3/GetDocuments').query.get('afterIndexKey')).toBe(doc.IndexKey);
  });

  it('PostMessage: the body sent is the note’s request key for key; the Message answer comes back whole', async () => {
    const msg = await gw.op.sendDocument({ ToBoxId: TO, DocumentAttachments: [attachment], mode: 'signed', operationId: 'op-ref' });
    expect(sent('POST /V3/PostMessage').body).toEqual(expectedBody());
    expect(sent('POST /V3/PostMessage').query.get('operationId')).toBe('op-ref');
    expect(msg.MessageId).toBe(ref.message.MessageId);
    expect(((msg.Entities as Obj[])[0]!.DocumentInfo as Obj).CreationTimestampTicks).toBe(635802325536912186n);
  });

  it('GetNewEvents: a message event and a patch event pass through; the base64 IndexKey goes as afterIndexKey', async () => {
    const list = await gw.op.getEvents({});
    expect((list.Events as Obj[]).map((e) => Object.keys(e).at(-1))).toEqual(['Message', 'Patch']);
    expect(((list.Events as Obj[])[1]!.Patch as Obj).EntityPatches).toEqual([{ EntityId: expect.any(String), DocumentIsDeleted: true }]);
    await gw.op.getEvents({ afterIndexKey: String(events[1]!.IndexKey), limit: 10 });
    expect(Object.fromEntries(sent('GET /V8/GetNewEvents').query)).toEqual({ boxId: BOX, afterIndexKey: events[1]!.IndexKey, limit: '10' });
  });

  it('employees, counteragents and organizations: documented query names, answers intact', async () => {
    expect((await gw.op.listEmployees(1, 50)).TotalCount).toBe(61);
    expect(Object.fromEntries(sent('GET /GetEmployees').query)).toEqual({ boxId: BOX, page: '1', count: '50' });
    expect(((await gw.op.getMyEmployee()).CreationTimestamp as Obj).Ticks).toBe(636766476176953926n);
    await gw.op.listCounteragents({ counteragentStatus: 'IsMyCounteragent', afterIndexKey: String(counteragent.IndexKey) });
    expect(Object.fromEntries(sent('GET /V3/GetCounteragents').query)).toEqual({
      myBoxId: BOX,
      counteragentStatus: 'IsMyCounteragent',
      afterIndexKey: counteragent.IndexKey,
    });
    expect((await gw.op.searchOrganizations('9147414342', '757645784')).Organizations).toEqual([org]);
    expect(Object.fromEntries(sent('GET /GetOrganizationsByInnKpp').query)).toEqual({ inn: '9147414342', kpp: '757645784' });
    expect((await gw.op.currentOrganization()).Inn).toBe('9147414342');
    expect(Object.fromEntries(sent('GET /GetOrganization').query)).toEqual({ boxId: BOX });
  });
});

describe('the reference examples through the HTTP routes', () => {
  it('GET /edo/health is connected: the box GUID is found as the listed `…@diadoc.ru` box', async () => {
    const res = await gw.call('GET', '/api/v1/edo/health');
    expect([res.statusCode, res.json().status]).toEqual([200, 'connected']);
    expect(sent('GET /GetMyOrganizations').query.get('autoRegister')).toBe('false');
  });

  it('GET /edo/documents writes the ticks digit for digit and takes the 214-character IndexKey back', async () => {
    const first = await gw.call('GET', '/api/v1/edo/documents?filterCategory=Any.InboundNotFinished');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('"LastModificationTimestampTicks":635802325696852440');
    const next = await gw.call(
      'GET',
      `/api/v1/edo/documents?filterCategory=Any.InboundNotFinished&afterIndexKey=${first.json().Documents[0].IndexKey}`,
    );
    expect(next.statusCode).toBe(200);
    expect(sent('GET /V3/GetDocuments').query.get('afterIndexKey')).toBe(doc.IndexKey);
  });

  it('POST /edo/documents/send posts the note’s request (plus the dated metadata the gateway adds) and answers the Message', async () => {
    const res = await gw.call('POST', '/api/v1/edo/documents/send', { ToBoxId: TO, DocumentAttachments: [attachment] });
    expect(res.statusCode).toBe(200);
    expect(sent('POST /V3/PostMessage').body).toEqual(expectedBody([{ Key: 'DocumentDate', Value: '23.11.2026' }]));
    expect(res.json()).toMatchObject({ MessageId: ref.message.MessageId, Mode: 'signed', IsTest: true });
  });

  it('GET /edo/events pages by the EventId (a GUID) and by the base64 IndexKey of an event it answered', async () => {
    const page = await gw.call('GET', '/api/v1/edo/events');
    expect(page.statusCode).toBe(200);
    const [message, patch] = page.json().Events;
    expect(message.Message.Entities[0].DocumentInfo.IndexKey).toBe(doc.IndexKey);
    const byId = await gw.call('GET', `/api/v1/edo/events?afterEventId=${patch.EventId}`);
    expect([byId.statusCode, byId.json().CursorSentAs, sent('GET /V8/GetNewEvents').query.get('afterEventId')]).toEqual([
      200,
      'afterEventId',
      patch.EventId,
    ]);
    const byKey = await gw.call('GET', `/api/v1/edo/events?afterEventId=${encodeURIComponent(patch.IndexKey)}`);
    expect([byKey.statusCode, byKey.json().CursorSentAs, sent('GET /V8/GetNewEvents').query.get('afterIndexKey')]).toEqual([
      200,
      'afterIndexKey',
      patch.IndexKey,
    ]);
  });

  it('employees, counteragents and organizations answer the note’s examples', async () => {
    expect((await gw.call('GET', '/api/v1/edo/employees?page=1&count=50')).json().Employees[0].User.Login).toBe('ivan@example.com');
    expect((await gw.call('GET', '/api/v1/edo/employees/me')).body).toContain('"Ticks":636766476176953926');
    const cps = await gw.call('GET', `/api/v1/edo/counteragents?afterIndexKey=${counteragent.IndexKey}`);
    expect([cps.statusCode, sent('GET /V3/GetCounteragents').query.get('afterIndexKey')]).toEqual([200, counteragent.IndexKey]);
    expect(cps.body).toContain('"LastEventTimestampTicks":638585445988979088');
    expect((await gw.call('GET', '/api/v1/edo/organizations')).json().Organizations[0].Boxes[0].BoxId).toBe(orgBox.BoxId);
    expect((await gw.call('GET', '/api/v1/edo/organizations/search?inn=9147414342&kpp=757645784')).json().Organizations[0].Inn).toBe('9147414342');
    expect((await gw.call('GET', '/api/v1/edo/organizations/current')).json().FullName).toBe('Ромашка');
  });
});

describe('the simulator answers the same calls with the same shape', () => {
  let rig: EdoRig;
  let sim: RunningEdoSimulator;
  beforeAll(async () => {
    rig = await makeEdoRig();
    sim = rig.sim;
  });
  afterAll(async () => rig.close());

  it('GetDocuments, GetNewEvents, employees, counteragents, organizations: every key of the note’s examples, same JSON type', async () => {
    const op = rig.operator;
    // missingPaths compares first elements of arrays: each list must hold one, or the check would be empty
    const nonEmpty = (answer: Obj, key: string) => expect((answer[key] as unknown[]).length, key).toBeGreaterThan(0);
    const docs = await op.listDocuments({ filterCategory: 'Any.Inbound' });
    nonEmpty(docs, 'Documents');
    expect(missingPaths(ref.getDocuments, docs)).toEqual([]);
    // the first event of both is a message event (the note's Message, its Document inside)
    const simEvents = await op.getEvents({});
    nonEmpty(simEvents, 'Events');
    expect(missingPaths({ ...ref.getNewEvents, Events: [events[0]] }, simEvents)).toEqual([]);
    const employees = await op.listEmployees(1, 10);
    nonEmpty(employees, 'Employees');
    expect(missingPaths(ref.getEmployees, employees)).toEqual([]);
    expect(missingPaths(employee, await op.getMyEmployee())).toEqual([]);
    const cps = await op.listCounteragents({});
    nonEmpty(cps, 'Counteragents');
    expect(missingPaths(ref.getCounteragents, cps)).toEqual([]);
    const orgs = await op.listOrganizations();
    nonEmpty(orgs, 'Organizations');
    expect(missingPaths({ Organizations: [org] }, orgs)).toEqual([]);
    const cp = sim.state.counteragents[0]!;
    expect(missingPaths({ Organizations: [org] }, await op.searchOrganizations(cp.inn, cp.kpp))).toEqual([]);
    expect(missingPaths(org, await op.currentOrganization())).toEqual([]);
  });

  it('PostMessage takes the note’s request and answers a Message of the note’s shape', async () => {
    const msg = await rig.operator.sendDocument({
      ToBoxId: sim.state.counteragents[0]!.boxGuid,
      DocumentAttachments: [attachment],
      mode: 'signed',
      operationId: 'sim-ref',
    });
    expect(missingPaths(ref.message, msg)).toEqual([]);
    const signature = (msg.Entities as Obj[]).find((e) => e.EntityType === 'Signature');
    expect(missingPaths((ref.message.Entities as Obj[])[1], signature)).toEqual([]);
  });
});

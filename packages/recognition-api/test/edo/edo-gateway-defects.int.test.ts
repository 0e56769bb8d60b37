import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

/**
 * Regression tests of the gateway's known defects, through the HTTP routes as a spec-following client calls
 * them (the simulator issues IndexKeys of Diadoc's length and shape).
 */
let e: EdoHarness;
beforeAll(async () => (e = await makeEdoHarness({ timeoutMs: 300 })));
afterAll(async () => e.close());

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** The spec's own send body: `{ToBoxId, DocumentAttachments: [{TypeNamedId: {Name, Version}, SignedContent: {Content}}]}`. */
const specBody = (content: Buffer = PDF) => ({
  ToBoxId: e.sim.state.counteragents[0]!.boxGuid,
  DocumentAttachments: [{ TypeNamedId: { Name: 'Nonformalized', Version: 'v1' }, SignedContent: { Content: content.toString('base64') } }],
});
const signedBody = (content = 'c2lnbmVk') => ({
  ToBoxId: e.sim.state.counteragents[0]!.boxGuid,
  DocumentAttachments: [
    {
      TypeNamedId: { Name: 'Nonformalized', Version: 'v1' },
      SignedContent: { Content: content, SignWithTestSignature: true },
      FileName: 'signed.txt',
    },
  ],
});
const messagesOf = (messageId: string) => e.sim.state.documents.filter((d) => d.messageId === messageId);

describe('1. paging with IndexKeys of the real length', () => {
  it('takes the 214-character IndexKey of the last document as the next page cursor', async () => {
    const first = (await e.inject('GET', '/api/v1/edo/documents?filterCategory=Any.Outbound&count=5')).json();
    const key: string = first.Documents.at(-1).IndexKey;
    expect(key).toMatch(/^[0-9A-F]{214}$/);
    const next = await e.inject('GET', `/api/v1/edo/documents?filterCategory=Any.Outbound&count=5&afterIndexKey=${key}`);
    expect(next.statusCode).toBe(200);
    const ids = [...first.Documents, ...next.json().Documents].map((d: { EntityId: string }) => d.EntityId);
    expect(new Set(ids).size).toBe(10);
  });
});

describe('2. the event feed pages by afterEventId (an EventId) and by IndexKey', () => {
  it('a GUID EventId goes to Diadoc as afterEventId, an IndexKey as afterIndexKey, and the answer says which', async () => {
    const first = (await e.inject('GET', '/api/v1/edo/events?limit=3')).json();
    expect(first.CursorSentAs).toBeUndefined();
    const last = first.Events.at(-1);
    expect(last.EventId).toMatch(GUID);
    const byId = await e.inject('GET', `/api/v1/edo/events?limit=3&afterEventId=${last.EventId}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().CursorSentAs).toBe('afterEventId');
    expect(e.sim.requestUrls.at(-1)).toContain(`afterEventId=${last.EventId}`);
    const byKey = await e.inject('GET', `/api/v1/edo/events?limit=3&afterEventId=${encodeURIComponent(last.IndexKey)}`);
    expect(byKey.json().CursorSentAs).toBe('afterIndexKey');
    const byKeyParam = await e.inject('GET', `/api/v1/edo/events?limit=3&afterIndexKey=${encodeURIComponent(last.IndexKey)}`);
    const ids = (r: typeof byId) => r.json().Events.map((x: { EventId: string }) => x.EventId);
    expect(ids(byKey)).toEqual(ids(byId));
    expect(ids(byKeyParam)).toEqual(ids(byId));
    expect(ids(byId)).toEqual(e.sim.state.events.slice(3, 6).map((x) => x.eventId));
  });
});

describe('3. a send is safe to retry: the operation id comes back in every answer', () => {
  it('without operationId: a new one in X-Operation-Id and OperationId; repeating it with Idempotency-Key posts nothing twice', async () => {
    const a = await e.inject('POST', '/api/v1/edo/documents/send', { body: signedBody('b25jZQ==') });
    expect(a.statusCode).toBe(200);
    const op = a.headers['x-operation-id'] as string;
    expect(op).toMatch(GUID);
    expect(a.json().OperationId).toBe(op);
    const b = await e.inject('POST', '/api/v1/edo/documents/send', { body: signedBody('b25jZQ=='), headers: { 'idempotency-key': op } });
    expect([b.statusCode, b.json().MessageId, b.headers['x-operation-id']]).toEqual([200, a.json().MessageId, op]);
    expect(messagesOf(a.json().MessageId)).toHaveLength(1);
  });

  it('a final 5xx carries the operation id in the header and error.operation_id; the retry with it creates one message', async () => {
    e.sim.faults.add({ kind: 'server-error', status: 502, times: 3, path: '/V3/PostMessage' });
    const failed = await e.inject('POST', '/api/v1/edo/documents/send', { body: signedBody('cmV0cnk='), headers: { 'idempotency-key': 'retry-1' } });
    expect([failed.statusCode, failed.json().error.code, failed.json().error.operation_id]).toEqual([503, 'EDO_UNAVAILABLE', 'retry-1']);
    expect(failed.headers['x-operation-id']).toBe('retry-1');
    const ok = await e.inject('POST', '/api/v1/edo/documents/send', { body: signedBody('cmV0cnk='), headers: { 'idempotency-key': 'retry-1' } });
    expect(ok.statusCode).toBe(200);
    expect(e.sim.state.operations.get('retry-1')).toBe(ok.json().MessageId);
  });

  it('a validation error of the send carries the operation id too; two different keys are refused', async () => {
    const two = await e.inject('POST', '/api/v1/edo/documents/send?operationId=q-1', { body: signedBody(), headers: { 'idempotency-key': 'h-1' } });
    expect([two.statusCode, two.json().error.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(two.json().error.message).toMatch(/^Idempotency-Key:/);
    const bad = await e.inject('POST', '/api/v1/edo/documents/send?operationId=v-1', { body: { ToBoxId: 'nobox' } });
    expect([bad.statusCode, bad.json().error.operation_id, bad.headers['x-operation-id']]).toEqual([422, 'v-1', 'v-1']);
  });

  it('a large body gets a timeout that fits its size (base timeout 300 ms, operator answers after 600 ms)', async () => {
    const big = Buffer.alloc(400 * 1024, 'a').toString('base64');
    e.sim.faults.add({ kind: 'slow', delayMs: 600, times: 1, path: '/V3/PostMessage' });
    const res = await e.inject('POST', '/api/v1/edo/documents/send', { body: signedBody(big) });
    expect(res.statusCode).toBe(200);
  });
});

describe("4. the spec's own send body is accepted, with documented defaults", () => {
  it('a Nonformalized document without metadata gets FileName from its content type and DocumentDate today (Moscow)', async () => {
    const res = await e.inject('POST', '/api/v1/edo/documents/send', { body: specBody() });
    expect(res.statusCode).toBe(200);
    const doc = messagesOf(res.json().MessageId)[0]!;
    expect(doc.fileName).toBe('document.pdf');
    expect(doc.metadata).toContainEqual({ Key: 'DocumentDate', Value: '23.11.2026' });
    expect(res.json().Entities[0]).toMatchObject({ EntityType: 'Attachment', FileName: 'document.pdf' });
  });

  it('FileName and Metadata given by the caller are kept', async () => {
    const body = specBody(Buffer.from('plain text'));
    const a = { ...body.DocumentAttachments[0]!, FileName: 'акт.txt', Metadata: [{ Key: 'DocumentDate', Value: '01.11.2026' }] };
    const res = await e.inject('POST', '/api/v1/edo/documents/send', { body: { ...body, DocumentAttachments: [a] } });
    const doc = messagesOf(res.json().MessageId)[0]!;
    expect([doc.fileName, doc.date]).toEqual(['акт.txt', '01.11.2026']);
  });
});

describe("5. the spec's own employee body is passed through", () => {
  it('SelectedDepartments without SelectedDepartmentIds reaches Diadoc and its answer comes back', async () => {
    const res = await e.inject('POST', '/api/v1/edo/employees', {
      body: {
        Credentials: { Login: 'selected@sim.example', FullName: { LastName: 'Серов', FirstName: 'Иван' } },
        Position: 'Кладовщик',
        Permissions: { IsAdministrator: false, DocumentAccessLevel: 'SelectedDepartments' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().Permissions).toMatchObject({ DocumentAccessLevel: 'SelectedDepartments', SelectedDepartmentIds: [] });
    const put = await e.inject('PUT', `/api/v1/edo/employees/${res.json().User.UserId}`, {
      body: { Permissions: { DocumentAccessLevel: 'SelectedDepartments' } },
    });
    expect(put.statusCode).toBe(200);
  });
});

describe('6. the send mode is explicit', () => {
  it('unsigned without a mode: delaySend (outbound, waiting for the sender signature), said in Mode; not a draft', async () => {
    const res = await e.inject('POST', '/api/v1/edo/documents/send', { body: specBody(Buffer.from('delay')) });
    expect(res.json()).toMatchObject({ Mode: 'delaySend', IsDraft: false });
    expect(messagesOf(res.json().MessageId)[0]!.state).toBe('WaitingForSenderSignature');
    const waiting = (await e.inject('GET', '/api/v1/edo/documents?filterCategory=Any.OutboundWaitingForSenderSignature')).json();
    expect(waiting.Documents.map((d: { MessageId: string }) => d.MessageId)).toContain(res.json().MessageId);
  });

  it('Mode draft posts a draft; signed documents without a mode are sent', async () => {
    const draft = await e.inject('POST', '/api/v1/edo/documents/send', { body: { ...specBody(Buffer.from('draft')), Mode: 'draft' } });
    expect(draft.json()).toMatchObject({ Mode: 'draft', IsDraft: true });
    const sent = await e.inject('POST', '/api/v1/edo/documents/send', { body: signedBody('c2VudA==') });
    expect(sent.json()).toMatchObject({ Mode: 'signed', IsDraft: false });
  });

  it('an ambiguous request (signed and unsigned documents, no mode) is refused and nothing is posted', async () => {
    const before = e.sim.requests.length;
    const body = { ...signedBody(), DocumentAttachments: [...signedBody().DocumentAttachments, ...specBody().DocumentAttachments] };
    const res = await e.inject('POST', '/api/v1/edo/documents/send', { body });
    expect([res.statusCode, res.json().error.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(res.json().error.message).toMatch(/^Mode: is required/);
    expect(e.sim.requests.length).toBe(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

let e: EdoHarness;
beforeAll(async () => (e = await makeEdoHarness()));
afterAll(async () => e.close());

const G = '5e4d718e-ce87-4417-8fe5-65be7e27b37a';
const att = (over: Record<string, unknown> = {}) => ({
  TypeNamedId: { Name: 'Nonformalized', Version: 'v1' },
  SignedContent: { Content: 'aGVsbG8=' },
  ...over,
});
const box = 'f6262553-906d-495c-8958-c124dbaa0e2b';
const employee = (over: Record<string, unknown> = {}, perms: Record<string, unknown> = {}) => ({
  Credentials: { Login: 'x@sim.example', FullName: { LastName: 'Л', FirstName: 'Ф' } },
  Permissions: { IsAdministrator: false, DocumentAccessLevel: 'AllDocuments', ...perms },
  ...over,
});

/** [method, url, body, the field the 422 must name] */
const CASES: [string, string, unknown, string][] = [
  ['GET', '/api/v1/edo/documents', undefined, 'filterCategory'],
  ['GET', '/api/v1/edo/documents?filterCategory=Inbound', undefined, 'filterCategory'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&fromDocumentDate=2026-01-01', undefined, 'fromDocumentDate'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&toDocumentDate=31.02.2026', undefined, 'toDocumentDate'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&fromDocumentDate=02.01.2026&toDocumentDate=01.01.2026', undefined, 'toDocumentDate'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&count=0', undefined, 'count'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&count=101', undefined, 'count'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&timestampFrom=yesterday', undefined, 'timestampFrom'],
  [
    'GET',
    '/api/v1/edo/documents?filterCategory=Any.Inbound&timestampFrom=2026-11-01T00:00:00Z&fromDocumentDate=01.11.2026',
    undefined,
    'timestampFrom',
  ],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&counteragentBoxId=nobox', undefined, 'counteragentBoxId'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&sortDirection=Up', undefined, 'sortDirection'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&colour=red', undefined, 'colour'],
  ['GET', `/api/v1/edo/documents/not-a-guid/${G}`, undefined, 'messageId'],
  ['GET', `/api/v1/edo/documents/${G}/42/content`, undefined, 'entityId'],
  ['POST', '/api/v1/edo/documents/send', { DocumentAttachments: [att()] }, 'ToBoxId'],
  ['POST', '/api/v1/edo/documents/send', { ToBoxId: box, DocumentAttachments: [] }, 'DocumentAttachments'],
  ['POST', '/api/v1/edo/documents/send', { ToBoxId: box, DocumentAttachments: Array.from({ length: 41 }, () => att()) }, 'DocumentAttachments'],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ TypeNamedId: 'Nonformalized' })] },
    'DocumentAttachments.0.TypeNamedId',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ TypeNamedId: { Name: 'Nonformalized' } })] },
    'DocumentAttachments.0.TypeNamedId.Version',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ SignedContent: { Content: 'not base64!' } })] },
    'DocumentAttachments[0].SignedContent.Content',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ SignedContent: { Content: 'aGVsbG8', Signature: 'AA==' } })] },
    'DocumentAttachments[0].SignedContent.Content',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ SignedContent: { Content: 'aGVsbG8=', Signature: '%%' } })] },
    'DocumentAttachments[0].SignedContent.Signature',
  ],
  ['POST', '/api/v1/edo/documents/send?operationId=a%20b', { ToBoxId: box, DocumentAttachments: [att()] }, 'operationId'],
  ['POST', '/api/v1/edo/documents/send', { ToBoxId: box, DocumentAttachments: [att()], Mode: 'later' }, 'Mode'],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att()], IsDraft: false },
    'DocumentAttachments[0].SignedContent.Signature',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att()], Mode: 'signed' },
    'DocumentAttachments[0].SignedContent.Signature',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ SignedContent: { Content: 'aGVsbG8=', SignWithTestSignature: true } })], Mode: 'draft' },
    'DocumentAttachments[0].SignedContent',
  ],
  [
    'POST',
    '/api/v1/edo/documents/send',
    { ToBoxId: box, DocumentAttachments: [att({ SignedContent: { Content: 'aGVsbG8=', SignWithTestSignature: true } }), att()] },
    'Mode',
  ],
  ['POST', '/api/v1/edo/documents/send', { ToBoxId: box, DocumentAttachments: [att()], Mode: 'signed', IsDraft: true }, 'IsDraft'],
  ['POST', '/api/v1/edo/documents/send', { ToBoxId: box, DocumentAttachments: [att({ FileName: '' })] }, 'DocumentAttachments.0.FileName'],
  ['GET', `/api/v1/edo/documents?filterCategory=Any.Inbound&afterIndexKey=${'A'.repeat(2049)}`, undefined, 'afterIndexKey'],
  ['GET', '/api/v1/edo/documents?filterCategory=Any.Inbound&afterIndexKey=a%20b', undefined, 'afterIndexKey'],
  ['GET', `/api/v1/edo/events?afterEventId=${G}&afterIndexKey=AAAA`, undefined, 'afterIndexKey'],
  ['POST', '/api/v1/edo/documents/search', {}, 'query'],
  ['POST', '/api/v1/edo/documents/search', { query: 'x', count: 101 }, 'count'],
  ['POST', '/api/v1/edo/documents/search', { query: 'x', firstIndex: -1 }, 'firstIndex'],
  ['DELETE', '/api/v1/edo/documents/123', undefined, 'messageId'],
  ['DELETE', `/api/v1/edo/documents/${G}?documentId=abc`, undefined, 'documentId'],
  ['GET', '/api/v1/edo/events?afterEventId=a%20b', undefined, 'afterEventId'],
  ['GET', '/api/v1/edo/events?limit=0', undefined, 'limit'],
  ['GET', '/api/v1/edo/employees?page=0', undefined, 'page'],
  ['GET', '/api/v1/edo/employees?count=51', undefined, 'count'],
  ['GET', '/api/v1/edo/employees/nobody', undefined, 'userId'],
  ['POST', '/api/v1/edo/employees', { Permissions: employee().Permissions }, 'Credentials'],
  [
    'POST',
    '/api/v1/edo/employees',
    employee({ Credentials: { Login: 'not-an-email', FullName: { LastName: 'Л', FirstName: 'Ф' } } }),
    'Credentials.Login',
  ],
  ['POST', '/api/v1/edo/employees', employee({}, { DocumentAccessLevel: 'Everything' }), 'Permissions.DocumentAccessLevel'],
  ['PUT', `/api/v1/edo/employees/${G}`, {}, 'body'],
  ['PUT', `/api/v1/edo/employees/${G}`, { Position: { Position: 'wrapped' } }, 'Position'],
  ['DELETE', '/api/v1/edo/employees/me', undefined, 'userId'],
  ['GET', '/api/v1/edo/organizations/search', undefined, 'inn'],
  ['GET', '/api/v1/edo/organizations/search?inn=12345678901', undefined, 'inn'],
  ['GET', '/api/v1/edo/organizations/search?inn=7701234567&kpp=77', undefined, 'kpp'],
  ['GET', '/api/v1/edo/counteragents?pageSize=0', undefined, 'pageSize'],
  ['GET', '/api/v1/edo/counteragents?counteragentStatus=Friends', undefined, 'counteragentStatus'],
  ['GET', '/api/v1/edo/counteragents?query=abc&afterIndexKey=0000000000000001', undefined, 'query'],
];

describe('gateway validation: 422 VALIDATION_ERROR naming the field, nothing sent to the operator', () => {
  it.each(CASES)('%s %s', async (method, url, body, field) => {
    const before = e.sim.requests.length;
    const res = await e.inject(method, url, { body });
    expect(res.statusCode).toBe(422);
    const err = res.json().error;
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message.startsWith(`${field}:`) || err.message.startsWith(`${field} `) ? field : err.message).toBe(field);
    expect(e.sim.requests.length).toBe(before);
  });

  it('an unparsable JSON body is 422 VALIDATION_ERROR too', async () => {
    const res = await e.inject('POST', '/api/v1/edo/documents/search', { body: '{"query":', headers: { 'content-type': 'application/json' } });
    expect([res.statusCode, res.json().error.code]).toEqual([422, 'VALIDATION_ERROR']);
  });
});

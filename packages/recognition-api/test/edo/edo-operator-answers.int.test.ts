import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

/** Signature content, Diadoc's 405/413 and a 403 on one document, through the routes. */
let e: EdoHarness;
beforeAll(async () => (e = await makeEdoHarness()));
afterAll(async () => e.close());

describe('operator answers the gateway maps', () => {
  it('/content of a signature entity answers the signature bytes, named <entityId>.p7s', async () => {
    const d = e.sim.state.documents.find((x) => x.signatureEntityId && x.signature)!;
    const res = await e.inject('GET', `/api/v1/edo/documents/${d.messageId}/${d.signatureEntityId}/content`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(d.signature!)).toBe(true);
    expect(res.headers['content-disposition']).toContain(`filename="${d.signatureEntityId}.p7s"`);
  });

  it("Diadoc's 405 is 502 EDO_BAD_GATEWAY (our defect, not an outage) and 413 is 413 EDO_PAYLOAD_TOO_LARGE", async () => {
    e.sim.faults.add({ kind: 'server-error', status: 405, times: 1, path: '/GetMyOrganizations' });
    const wrongVerb = await e.inject('GET', '/api/v1/edo/organizations');
    expect([wrongVerb.statusCode, wrongVerb.json().error.code]).toEqual([502, 'EDO_BAD_GATEWAY']);
    e.sim.faults.add({ kind: 'server-error', status: 413, times: 1, path: '/V3/PostMessage' });
    const body = {
      ToBoxId: e.sim.state.counteragents[0]!.boxGuid,
      DocumentAttachments: [{ TypeNamedId: { Name: 'Nonformalized', Version: 'v1' }, SignedContent: { Content: 'aGVsbG8=' } }],
    };
    const tooLarge = await e.inject('POST', '/api/v1/edo/documents/send', { body });
    expect([tooLarge.statusCode, tooLarge.json().error.code]).toEqual([413, 'EDO_PAYLOAD_TOO_LARGE']);
    expect(tooLarge.json().error.operation_id).toBe(tooLarge.headers['x-operation-id']);
  });

  it('a 403 on one document is explained as access to that document, not as a box outside the user', async () => {
    const d = e.sim.state.documents[0]!;
    e.sim.faults.add({ kind: 'forbidden', times: 1, path: '/V3/GetDocument' });
    const res = await e.inject('GET', `/api/v1/edo/documents/${d.messageId}/${d.entityId}`);
    expect([res.statusCode, res.json().error.code]).toEqual([403, 'EDO_FORBIDDEN']);
    expect(res.json().error.message).toContain('denied access to this document');
    expect(res.json().error.message).not.toContain("not among the user's boxes");
    e.sim.faults.add({ kind: 'forbidden', times: 1, path: '/GetEmployees' });
    const admin = await e.inject('GET', '/api/v1/edo/employees');
    expect(admin.json().error.message).toContain('needs an administrator of the box');
  });
});

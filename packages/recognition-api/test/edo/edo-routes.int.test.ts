import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

let e: EdoHarness;
beforeAll(async () => (e = await makeEdoHarness()));
afterAll(async () => e.close());

describe('gateway routes pass the operator JSON through', () => {
  it('GET /edo/health is exactly {status, authenticated, organizations_count, box_id} when connected', async () => {
    const res = await e.inject('GET', '/api/v1/edo/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toStrictEqual({ status: 'connected', authenticated: true, organizations_count: 1, box_id: e.sim.boxId });
  });

  it('documents: Diadoc fields as sent, 64-bit ticks with every digit in the JSON text, ISO twins, paging by afterIndexKey', async () => {
    const sim = [...e.sim.state.documents].filter((d) => d.direction === 'Outbound').sort((a, b) => (a.sendTicks < b.sendTicks ? -1 : 1));
    const first = await e.inject('GET', '/api/v1/edo/documents?filterCategory=Any.Outbound&count=10');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(`"SendTimestampTicks":${sim[0]!.sendTicks}`);
    const page1 = first.json();
    expect(page1).toMatchObject({ TotalCount: 12, HasMoreResults: true });
    expect(page1.Documents[0]).toMatchObject({ EntityId: sim[0]!.entityId, DocumentDirection: 'Outbound', FileName: sim[0]!.fileName });
    expect(page1.Documents[0].SendTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    const last = page1.Documents.at(-1).IndexKey;
    const page2 = (await e.inject('GET', `/api/v1/edo/documents?filterCategory=Any.Outbound&count=10&afterIndexKey=${last}`)).json();
    expect(page2.HasMoreResults).toBe(false);
    expect([...page1.Documents, ...page2.Documents].map((d: { EntityId: string }) => d.EntityId)).toEqual(sim.map((d) => d.entityId));
  });

  it('content: the raw bytes with the document file name in Content-Disposition', async () => {
    const d = e.sim.state.documents[3]!;
    const res = await e.inject('GET', `/api/v1/edo/documents/${d.messageId}/${d.entityId}/content`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${d.fileName}"; filename*=UTF-8''${encodeURIComponent(d.fileName)}`);
    expect(res.rawPayload.equals(d.content)).toBe(true);
  });

  it('send: {Name, Version} becomes TypeNamedId + Version, FromBoxId is our box, operationId makes repeats safe', async () => {
    const body = {
      ToBoxId: e.sim.state.counteragents[1]!.boxGuid,
      DocumentAttachments: [
        {
          TypeNamedId: { Name: 'Nonformalized', Version: 'v1' },
          SignedContent: { Content: Buffer.from('договор').toString('base64'), SignWithTestSignature: true },
          Metadata: [{ Key: 'FileName', Value: 'договор.txt' }],
        },
      ],
    };
    const a = await e.inject('POST', '/api/v1/edo/documents/send?operationId=route-op-1', { body });
    const b = await e.inject('POST', '/api/v1/edo/documents/send?operationId=route-op-1', { body });
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().MessageId).toBe(b.json().MessageId);
    expect(a.json()).toMatchObject({
      FromBoxId: e.sim.boxId,
      IsDraft: false,
      Entities: [{ EntityType: 'Attachment', AttachmentType: 'Nonformalized', FileName: 'договор.txt' }, { EntityType: 'Signature' }],
    });
    const c = await e.inject('POST', '/api/v1/edo/documents/send', {
      body: { ...body, DocumentAttachments: [{ ...body.DocumentAttachments[0]!, SignedContent: { Content: 'aGk=' } }] },
    });
    expect(c.json()).toMatchObject({ IsDraft: false, Mode: 'delaySend' });
    expect(c.json().MessageId).not.toBe(a.json().MessageId);
  });

  it('search, delete and the event feed with afterEventId as the IndexKey cursor', async () => {
    const found = (await e.inject('POST', '/api/v1/edo/documents/search', { body: { query: e.sim.state.counteragents[2]!.inn, count: 100 } })).json();
    expect(found.Documents.length).toBeGreaterThan(0);
    const target = found.Documents[0].DocumentId;
    const del = await e.inject('DELETE', `/api/v1/edo/documents/${target.MessageId}?documentId=${target.EntityId}`);
    expect([del.statusCode, del.json()]).toEqual([200, { deleted: true }]);
    const again = await e.inject('DELETE', `/api/v1/edo/documents/${target.MessageId}`);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'EDO_CONFLICT']);
    expect(again.json().error.message).toContain('409 AlreadyDeleted');
    const first = (await e.inject('GET', '/api/v1/edo/events?limit=20')).json();
    const rest = (await e.inject('GET', `/api/v1/edo/events?afterEventId=${first.Events.at(-1).IndexKey}`)).json();
    expect(first.Events.length + rest.Events.length).toBe(e.sim.state.events.length);
    expect(rest.Events.at(-1).Patch.EntityPatches).toEqual([{ EntityId: target.EntityId, DocumentIsDeleted: true }]);
  });

  it('employees: PUT body fields reach Diadoc in their patch wrappers; create nests the login', async () => {
    const created = await e.inject('POST', '/api/v1/edo/employees', {
      body: {
        Credentials: { Login: 'petrov@sim.example', FullName: { LastName: 'Петров', FirstName: 'Олег', MiddleName: 'Ильич' } },
        Position: 'Экспедитор',
        CanBeInvitedForChat: true,
        Permissions: { IsAdministrator: false, DocumentAccessLevel: 'DepartmentOnly' },
      },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().User.UserId;
    const put = await e.inject('PUT', `/api/v1/edo/employees/${id}`, {
      body: { Position: 'Старший экспедитор', Permissions: { IsAdministrator: true, Actions: [{ Name: 'SignDocuments', IsAllowed: true }] } },
    });
    expect(put.json()).toMatchObject({
      Position: 'Старший экспедитор',
      Permissions: { IsAdministrator: true, DocumentAccessLevel: 'DepartmentOnly', Actions: [{ Name: 'SignDocuments', IsAllowed: true }] },
    });
    expect((await e.inject('GET', `/api/v1/edo/employees/${id}`)).json().User.Login).toBe('petrov@sim.example');
    expect((await e.inject('DELETE', `/api/v1/edo/employees/${id}`)).json()).toEqual({ deleted: true });
    const gone = await e.inject('GET', `/api/v1/edo/employees/${id}`);
    expect([gone.statusCode, gone.json().error.code]).toEqual([404, 'EDO_NOT_FOUND']);
    const dup = await e.inject('POST', '/api/v1/edo/employees', {
      body: {
        Credentials: { Login: 'buh@sim.example', FullName: { LastName: 'К', FirstName: 'М' } },
        Permissions: { IsAdministrator: false, DocumentAccessLevel: 'AllDocuments' },
      },
    });
    expect([dup.statusCode, dup.json().error.code]).toEqual([409, 'EDO_CONFLICT']);
  });

  it('organizations, the current one, a search by INN/KPP and counteragents', async () => {
    const ours = e.sim.state.ours;
    expect((await e.inject('GET', '/api/v1/edo/organizations')).json().Organizations[0]).toMatchObject({ Inn: ours.inn, Kpp: ours.kpp });
    expect((await e.inject('GET', '/api/v1/edo/organizations/current')).json()).toMatchObject({ Inn: ours.inn, FullName: ours.fullName });
    const cp = e.sim.state.counteragents[0]!;
    expect((await e.inject('GET', `/api/v1/edo/organizations/search?inn=${cp.inn}&kpp=${cp.kpp}`)).json().Organizations).toHaveLength(1);
    expect((await e.inject('GET', '/api/v1/edo/organizations/search?inn=7700000000')).json()).toEqual({ Organizations: [] });
    const cps = (await e.inject('GET', '/api/v1/edo/counteragents?counteragentStatus=IsMyCounteragent')).json();
    expect(cps.Counteragents.map((c: { Organization: { Inn: string } }) => c.Organization.Inn)).toEqual([
      e.sim.state.counteragents[0]!.inn,
      e.sim.state.counteragents[1]!.inn,
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_DOCUMENTS } from '@app/edo-simulator';
import { makeEdoRig, rejection, type EdoRig } from './edo-fixtures.js';

type Obj = Record<string, unknown>;
let rig: EdoRig;
beforeAll(async () => (rig = await makeEdoRig()));
afterAll(async () => rig.close());

const xml = (n: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="utf-8"?><Файл ИдФайл="ON_NSCHFDOPPR_x"><Документ><СвСчФакт НомерДок="${n}" ДатаДок="20.11.2026"/></Документ></Файл>`,
  ).toString('base64');

describe('Diadoc adapter against the simulator: send, search, delete, events', () => {
  it('posts TypeNamedId as a string plus Version, FromBoxId = our box, and is idempotent by operationId', async () => {
    const to = rig.sim.state.counteragents[0]!.boxGuid;
    const input = {
      ToBoxId: to,
      operationId: 'op-1',
      mode: 'signed' as const,
      DocumentAttachments: [
        {
          TypeNamedId: { Name: 'UniversalTransferDocument', Version: 'utd970_05_03_01' },
          SignedContent: { Content: xml('T-1'), SignWithTestSignature: true },
        },
      ],
    };
    const msg = await rig.operator.sendDocument(input);
    const attachment = (msg.Entities as Obj[]).find((e) => e.EntityType === 'Attachment')!;
    expect(attachment.AttachmentType).toBe('UniversalTransferDocument');
    expect(attachment.Version).toBe('utd970_05_03_01');
    expect(msg.FromBoxId).toBe(rig.sim.boxId);
    expect(msg.IsDraft).toBe(false);
    expect(typeof msg.Timestamp).toBe('string');
    const again = await rig.operator.sendDocument(input);
    expect(again.MessageId).toBe(msg.MessageId);
    expect(rig.sim.state.documents.filter((d) => d.messageId === msg.MessageId)).toHaveLength(1);
  });

  it('posts Mode draft as IsDraft', async () => {
    const msg = await rig.operator.sendDocument({
      ToBoxId: rig.sim.state.counteragents[1]!.boxGuid,
      operationId: 'op-2',
      mode: 'draft',
      DocumentAttachments: [{ TypeNamedId: { Name: 'Invoice', Version: 'invoice_05_03_01' }, SignedContent: { Content: xml('T-2') } }],
    });
    expect(msg.IsDraft).toBe(true);
    expect(msg.MessageType).toBe('Draft');
  });

  it('maps the operator refusing a version to EDO_BAD_REQUEST, and 204 (operation in progress) to EDO_CONFLICT with Retry-After', async () => {
    const bad = await rejection(
      rig.operator.sendDocument({
        ToBoxId: rig.sim.state.counteragents[0]!.boxGuid,
        operationId: 'op-3',
        mode: 'signed',
        DocumentAttachments: [
          {
            TypeNamedId: { Name: 'UniversalTransferDocument', Version: 'utd_999' },
            SignedContent: { Content: xml('T-3'), SignWithTestSignature: true },
          },
        ],
      }),
    );
    expect(bad.code).toBe('EDO_BAD_REQUEST');
    expect(bad.message).toContain('InvalidDocumentVersion');
    rig.sim.faults.add({ kind: 'post-in-progress', times: 1, retryAfter: 7 });
    const busy = await rejection(
      rig.operator.sendDocument({
        ToBoxId: rig.sim.state.counteragents[0]!.boxGuid,
        operationId: 'op-4',
        mode: 'signed',
        DocumentAttachments: [
          {
            TypeNamedId: { Name: 'Nonformalized', Version: 'v1' },
            SignedContent: { Content: 'aGVsbG8=', SignWithTestSignature: true },
            Metadata: [{ Key: 'FileName', Value: 'a.txt' }],
          },
        ],
      }),
    );
    expect([busy.code, busy.retryAfter]).toEqual(['EDO_CONFLICT', 7]);
  });

  it('searches docflows and pages by FirstIndex until HaveMoreDocuments is false', async () => {
    const inn = rig.sim.state.counteragents[0]!.inn;
    const found: string[] = [];
    for (let first = 0; ; first += 2) {
      const page = await rig.operator.searchDocuments({ query: inn, firstIndex: first, count: 2 });
      found.push(...(page.Documents as { DocumentId: { EntityId: string } }[]).map((d) => d.DocumentId.EntityId));
      if (!page.HaveMoreDocuments) break;
    }
    const expected = rig.sim.state.documents.filter((d) => !d.isDeleted && d.counteragent.inn === inn).map((d) => d.entityId);
    expect(found.sort()).toEqual(expected.sort());
  });

  it('deletes a message; a repeat is EDO_CONFLICT, an unknown one EDO_NOT_FOUND', async () => {
    const d = rig.sim.state.documents[5]!;
    await rig.operator.deleteDocument(d.messageId, d.entityId);
    expect(d.isDeleted).toBe(true);
    expect((await rejection(rig.operator.deleteDocument(d.messageId))).code).toBe('EDO_CONFLICT');
    expect((await rejection(rig.operator.deleteDocument('33333333-3333-4333-8333-333333333333'))).code).toBe('EDO_NOT_FOUND');
  });

  it('pages GetNewEvents by afterIndexKey to the end: the seeded messages, then the sends and the deletion patch', async () => {
    const events: Obj[] = [];
    let afterIndexKey: string | undefined;
    for (;;) {
      const page = await rig.operator.getEvents({ afterIndexKey, limit: 7 });
      const list = page.Events as Obj[];
      if (list.length === 0) break;
      events.push(...list);
      afterIndexKey = String(list.at(-1)!.IndexKey);
    }
    expect(events).toHaveLength(rig.sim.state.events.length);
    expect(events.length).toBeGreaterThanOrEqual(SEEDED_DOCUMENTS + 3);
    expect(events.at(-1)!.Patch).toMatchObject({ EntityPatches: [{ DocumentIsDeleted: true }] });
    expect((events[0]!.Message as Obj).FromBoxId).toMatch(/@diadoc\.ru$/);
    expect(typeof (events[0]!.Message as Obj).Timestamp).toBe('string');
  });
});

describe('Diadoc adapter against the simulator: employees, organizations, counteragents', () => {
  it('lists employees by page/count, reads me and one employee', async () => {
    const p1 = await rig.operator.listEmployees(1, 3);
    const p2 = await rig.operator.listEmployees(2, 3);
    expect(p1.TotalCount).toBe(4);
    expect([(p1.Employees as Obj[]).length, (p2.Employees as Obj[]).length]).toEqual([3, 1]);
    const me = await rig.operator.getMyEmployee();
    expect((me.User as Obj).UserId).toBe(rig.sim.state.meUserId);
    expect(typeof (me.CreationTimestamp as Obj).Ticks).toBe('bigint');
    const one = await rig.operator.getEmployee(rig.sim.state.employees[1]!.userId);
    expect((one.User as Obj).Login).toBe('buh@sim.example');
  });

  it('creates with the login nested as Credentials.Login.Login, updates through patch wrappers, deletes', async () => {
    const created = await rig.operator.createEmployee({
      Credentials: { Login: 'new@sim.example', FullName: { LastName: 'Новиков', FirstName: 'Пётр' } },
      Position: 'Кладовщик',
      Permissions: {
        IsAdministrator: false,
        DocumentAccessLevel: 'SelectedDepartments',
        SelectedDepartmentIds: ['00000000-0000-0000-0000-000000000000'],
      },
    });
    const userId = String((created.User as Obj).UserId);
    expect((created.User as Obj).Login).toBe('new@sim.example');
    expect(
      (
        await rejection(
          rig.operator.createEmployee({
            Credentials: { Login: 'new@sim.example', FullName: { LastName: 'Н', FirstName: 'П' } },
            Permissions: { IsAdministrator: false, DocumentAccessLevel: 'AllDocuments' },
          }),
        )
      ).code,
    ).toBe('EDO_CONFLICT');
    const updated = await rig.operator.updateEmployee(userId, {
      Position: 'Старший кладовщик',
      CanBeInvitedForChat: true,
      Permissions: { IsAdministrator: true, DocumentAccessLevel: 'AllDocuments', AuthorizationPermission: { IsBlocked: true, Comment: 'отпуск' } },
    });
    expect(updated.Position).toBe('Старший кладовщик');
    expect(updated.Permissions).toMatchObject({
      IsAdministrator: true,
      DocumentAccessLevel: 'AllDocuments',
      AuthorizationPermission: { IsBlocked: true, Comment: 'отпуск' },
    });
    await rig.operator.deleteEmployee(userId);
    expect((await rejection(rig.operator.getEmployee(userId))).code).toBe('EDO_NOT_FOUND');
  });

  it('reads my organizations (autoRegister=false), the current one, a search by INN/KPP and the counteragents', async () => {
    const mine = await rig.operator.listOrganizations();
    expect((mine.Organizations as Obj[]).map((o) => o.Inn)).toEqual([rig.sim.state.ours.inn]);
    expect((await rig.operator.currentOrganization()).Inn).toBe(rig.sim.state.ours.inn);
    const cp = rig.sim.state.counteragents[2]!;
    expect(((await rig.operator.searchOrganizations(cp.inn, cp.kpp)).Organizations as Obj[]).map((o) => o.FullName)).toEqual([cp.fullName]);
    const all = await rig.operator.listCounteragents({});
    expect(all.TotalCount).toBe(3);
    expect(typeof (all.Counteragents as Obj[])[0]!.LastEventTimestamp).toBe('string');
    const invites = await rig.operator.listCounteragents({ counteragentStatus: 'InvitesMe' });
    expect((invites.Counteragents as Obj[]).map((c) => (c.Organization as Obj).Inn)).toEqual([cp.inn]);
  });
});

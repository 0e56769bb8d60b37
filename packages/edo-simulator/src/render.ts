import { boxIdOf, HEAD_DEPARTMENT } from './box-ids.js';
import type { SimDocument, SimEmployee, SimOrg, SimState } from './model.js';
import { ticksToIso } from './ticks.js';

type Json = Record<string, unknown>;

/** Diadoc `Box`. */
export const boxJson = (o: SimOrg): Json => ({
  BoxId: boxIdOf(o.boxGuid),
  BoxIdGuid: o.boxGuid,
  Title: o.shortName,
  InvoiceFormatVersion: 'v5_02',
  EncryptedDocumentsAllowed: false,
});

/** Diadoc `Organization` (the fields of Organization.proto a client reads, plus the JSON-only extras). */
export const organizationJson = (o: SimOrg): Json => ({
  OrgId: o.orgId,
  OrgIdGuid: o.orgId,
  Inn: o.inn,
  Kpp: o.kpp,
  FullName: o.fullName,
  ShortName: o.shortName,
  JoinedDiadocTreaty: true,
  Boxes: [boxJson(o)],
  Ogrn: o.ogrn,
  FnsParticipantId: o.fnsParticipantId,
  Address: {
    RussianAddress: { ZipCode: o.address.zipCode, Region: o.address.region, City: o.address.city, Street: o.address.text, Building: '1' },
    AddressCode: '',
  },
  FnsRegistrationDate: '01.02.2015',
  Departments: [],
  IfnsCode: o.inn.slice(0, 4),
  IsPilot: false,
  IsActive: true,
  IsTest: true,
  IsBranch: false,
  IsRoaming: false,
  IsEmployee: false,
  InvitationCount: 0,
  SearchCount: 0,
  Sociability: 'AllOrganizations',
  OrganizationType: 'LegalEntity',
  IsForeign: false,
  HasCertificateToSign: true,
});

/** Diadoc `Document` from our box's side; `Content.Data` only when `withContent`. */
export function documentJson(d: SimDocument, indexKey: string, withContent: boolean): Json {
  const box = d.counteragent.boxGuid;
  return {
    IndexKey: indexKey,
    MessageId: d.messageId,
    EntityId: d.entityId,
    MessageIdGuid: d.messageId,
    EntityIdGuid: d.entityId,
    CreationTimestampTicks: d.sendTicks,
    CreationTimestamp: ticksToIso(d.sendTicks),
    CounteragentBoxId: boxIdOf(box),
    CounteragentBoxIdGuid: box,
    DocumentType: d.typeNamedId,
    TypeNamedId: d.typeNamedId,
    Function: d.func,
    Version: d.version,
    WorkflowId: 1,
    Title: d.title,
    InitialDocumentIds: [],
    SubordinateDocumentIds: [],
    Content: { Size: d.content.length, Data: withContent ? d.content.toString('base64') : null },
    FileName: d.fileName,
    DocumentDate: d.date,
    DocumentNumber: d.number,
    IsDeleted: d.isDeleted,
    DepartmentId: HEAD_DEPARTMENT,
    IsTest: true,
    FromDepartmentId: HEAD_DEPARTMENT,
    ToDepartmentId: '',
    CustomDocumentId: d.customDocumentId,
    RevocationStatus: 'RevocationStatusNone',
    SendTimestampTicks: d.sendTicks,
    DeliveryTimestampTicks: d.deliveryTicks,
    DocumentDirection: d.direction,
    IsRead: d.isRead,
    LastModificationTimestampTicks: d.lastModificationTicks,
    SenderSignatureStatus: d.signature ? 'SenderSignatureCheckedAndValid' : 'WaitingForSenderSignature',
    RecipientResponseStatus: d.state === 'Finished' ? 'WithRecipientSignature' : 'WaitingForRecipientSignature',
    LockMode: 'None',
    // Present in Diadoc's published GetDocuments example (howto/example_receive_invoice.rst).
    ForwardDocumentEvents: [],
    RoamingNotificationStatus: 'RoamingNotificationStatusNone',
    HasCustomPrintForm: false,
    IsEncryptedContent: false,
    CustomData: [],
    Metadata: d.metadata,
    PacketIsLocked: false,
    DocflowStatus: { PrimaryStatus: { Severity: d.state === 'Finished' ? 'Success' : 'Info', StatusText: statusText(d) } },
  };
}

function statusText(d: SimDocument): string {
  if (d.isDraft) return 'Черновик';
  if (d.state === 'Finished') return 'Документооборот завершен';
  return d.direction === 'Inbound' ? 'Требуется подписать' : 'Ожидается подпись получателя';
}

/** Diadoc `Message` holding `docs` (all of one message id): an Attachment entity and its Signature per document. */
export function messageJson(state: SimState, docs: SimDocument[], indexKeyOf: (d: SimDocument) => string): Json {
  const first = docs[0]!;
  const [from, to] = first.direction === 'Outbound' ? [state.ours, first.counteragent] : [first.counteragent, state.ours];
  const entities = docs.flatMap((d) => [
    {
      EntityType: 'Attachment',
      EntityId: d.entityId,
      AttachmentType: d.typeNamedId,
      FileName: d.fileName,
      Content: { Size: d.content.length },
      RawCreationDate: d.sendTicks,
      NeedRecipientSignature: true,
      NeedReceipt: false,
      Version: d.version,
      DocumentInfo: documentJson(d, indexKeyOf(d), false),
    },
    ...(d.signatureEntityId
      ? [
          {
            EntityType: 'Signature',
            EntityId: d.signatureEntityId,
            ParentEntityId: d.entityId,
            SignerBoxId: boxIdOf(from.boxGuid),
            Content: { Size: d.signature?.length ?? 0 },
            RawCreationDate: d.sendTicks,
          },
        ]
      : []),
  ]);
  return {
    MessageId: first.messageId,
    TimestampTicks: first.sendTicks,
    LastPatchTimestampTicks: first.lastModificationTicks,
    FromBoxId: boxIdOf(from.boxGuid),
    FromTitle: from.shortName,
    ToBoxId: boxIdOf(to.boxGuid),
    ToTitle: to.shortName,
    IsDraft: first.isDraft,
    IsDeleted: docs.every((d) => d.isDeleted),
    IsTest: true,
    IsInternal: false,
    MessageType: first.isDraft ? 'Draft' : 'Letter',
    LockMode: 'None',
    Entities: entities,
  };
}

/** Diadoc `Employee`. */
export const employeeJson = (e: SimEmployee): Json => ({
  User: { UserId: e.userId, Login: e.login, FullName: e.fullName, IsRegistered: e.isRegistered },
  Permissions: {
    UserDepartmentId: e.departmentId,
    IsAdministrator: e.isAdministrator,
    DocumentAccessLevel: e.accessLevel,
    SelectedDepartmentIds: e.selectedDepartmentIds,
    Actions: e.actions,
    AuthorizationPermission: e.authorization,
  },
  Position: e.position,
  CanBeInvitedForChat: e.canBeInvitedForChat,
  CreationTimestamp: { DateTime: ticksToIso(e.creationTicks), Ticks: e.creationTicks },
});

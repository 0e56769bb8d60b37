/** In-memory state of the simulated Diadoc installation: organizations, one box per org, documents, events, employees. */

/** An organization with one box. Ids are GUIDs; the box's `@diadoc.ru` form is derived. */
export interface SimOrg {
  orgId: string;
  boxGuid: string;
  inn: string;
  kpp: string;
  fullName: string;
  shortName: string;
  ogrn: string;
  fnsParticipantId: string;
  address: { zipCode: string; region: string; city: string; text: string };
  /** Relation to our organization; absent on our own. */
  counteragentStatus?: 'IsMyCounteragent' | 'InvitesMe' | 'IsInvitedByMe' | 'Rejected';
  counteragentSinceTicks?: bigint;
}

/** Docflow state; `Finished` documents are signed by both sides. Drives the filterCategory status suffixes. */
export type DocState = 'Finished' | 'WaitingForRecipientSignature' | 'WaitingForSenderSignature' | 'Draft';

/** One document (a LetterAttachment entity of a message) as seen from our box. */
export interface SimDocument {
  messageId: string;
  entityId: string;
  signatureEntityId: string | null;
  direction: 'Inbound' | 'Outbound';
  counteragent: SimOrg;
  typeNamedId: string;
  func: string;
  version: string;
  fileName: string;
  content: Buffer;
  signature: Buffer | null;
  number: string;
  /** dd.MM.yyyy */
  date: string;
  title: string;
  sendTicks: bigint;
  deliveryTicks: bigint;
  lastModificationTicks: bigint;
  isRead: boolean;
  isDeleted: boolean;
  isDraft: boolean;
  state: DocState;
  customDocumentId: string;
  comment: string;
  metadata: { Key: string; Value: string }[];
}

/** A box event: a new message, or a patch (deletion) of an existing one. `seq` orders the feed. */
export interface SimEvent {
  eventId: string;
  seq: number;
  kind: 'message' | 'patch';
  messageId: string;
  ticks: bigint;
  deletedEntityId?: string;
  messageDeleted?: boolean;
}

export type AccessLevel = 'DepartmentOnly' | 'DepartmentAndSubdepartments' | 'AllDocuments' | 'SelectedDepartments';

/** An employee of our box. */
export interface SimEmployee {
  userId: string;
  login: string;
  fullName: { LastName: string; FirstName: string; MiddleName?: string };
  isRegistered: boolean;
  position: string;
  canBeInvitedForChat: boolean;
  departmentId: string;
  isAdministrator: boolean;
  accessLevel: AccessLevel;
  selectedDepartmentIds: string[];
  actions: { Name: string; IsAllowed: boolean }[];
  authorization: { IsBlocked: boolean; Comment: string };
  creationTicks: bigint;
  deleted: boolean;
}

/** The whole simulated installation. `me` is the token's user (an administrator of our box). */
export interface SimState {
  ours: SimOrg;
  counteragents: SimOrg[];
  documents: SimDocument[];
  events: SimEvent[];
  employees: SimEmployee[];
  meUserId: string;
  /** PostMessage idempotency: operationId → message id. */
  operations: Map<string, string>;
}

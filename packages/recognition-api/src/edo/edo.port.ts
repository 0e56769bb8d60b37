import type { Readable } from 'node:stream';
import type { EdoConnection } from './edo-connection.repo.js';

/**
 * The e-document operator port (Spec: E-document operator gateway). One adapter today, Kontur.Diadoc
 * (`diadoc.http.ts`); another operator gets its own adapter behind the same interface. Bodies are the operator's
 * own JSON objects (PascalCase; `…Ticks` as bigint when beyond 2^53), passed through to the caller. Every method
 * rejects with an `ApiError` carrying an `EDO_*` code (errors.ts).
 */
export type OperatorJson = Record<string, unknown>;

/** GET /api/v1/edo/documents. Dates are `dd.MM.yyyy`; `timestampFrom/To` cannot be combined with them. */
export interface DocumentsFilter {
  filterCategory: string;
  counteragentBoxId?: string;
  fromDocumentDate?: string;
  toDocumentDate?: string;
  timestampFrom?: Date;
  timestampTo?: Date;
  documentNumber?: string;
  /** Paging cursor: the `IndexKey` of the last document of the previous page (exclusive). */
  afterIndexKey?: string;
  /** Page size 1–100 (operator default 100). */
  count?: number;
  sortDirection?: 'Ascending' | 'Descending';
}

/** One document of POST /api/v1/edo/documents/send, in the spec's shape (`TypeNamedId` as `{Name, Version}`). */
export interface AttachmentInput {
  TypeNamedId: { Name: string; Version: string };
  SignedContent: { Content: string; Signature?: string; SignWithTestSignature?: boolean };
  Function?: string;
  Metadata?: { Key: string; Value: string }[];
  /** Ours: the file name of a `Nonformalized` document, sent as the `FileName` metadata entry. */
  FileName?: string;
  Comment?: string;
  CustomDocumentId?: string;
  NeedRecipientSignature?: boolean;
}

/**
 * How a message is posted (docs/edo-gateway.md, "Send modes"; Diadoc docs instructions/docsend.rst):
 * - `signed`: sent to the counterparty now; every document carries `Signature` or `SignWithTestSignature`;
 * - `delaySend`: Diadoc's «отложенная отправка» (`MessageToPost.DelaySend`): stored among the outbound documents
 *   as «Требуется подписать и отправить», signed and sent later (e.g. in Diadoc's web interface); no signatures;
 * - `draft`: a draft (`IsDraft`), not sent and not listed by GetDocuments; no signatures.
 */
export type SendMode = 'signed' | 'delaySend' | 'draft';

/** What the adapter posts: the attachments with their defaults applied and the resolved mode (send-mode.ts). */
export interface SendInput {
  ToBoxId: string;
  DocumentAttachments: AttachmentInput[];
  mode: SendMode;
  /** Idempotency key: a repeat with the same key returns the message already created. */
  operationId: string;
}

export interface SearchInput {
  query: string;
  firstIndex?: number;
  count?: number;
  scope?: string;
}
/** GetNewEvents cursor: exactly one of them, or none for the oldest events. */
export interface EventsInput {
  afterIndexKey?: string;
  /** Diadoc's deprecated cursor, an `EventId` GUID. */
  afterEventId?: string;
  limit?: number;
}
export interface CounteragentsInput {
  counteragentStatus?: string;
  afterIndexKey?: string;
  query?: string;
  pageSize?: number;
}

/** POST /api/v1/edo/employees body (spec shape: `Credentials.Login` is the login string). */
export interface EmployeeCreateInput {
  Credentials: { Login: string; FullName: { LastName: string; FirstName: string; MiddleName?: string } };
  Position?: string;
  CanBeInvitedForChat?: boolean;
  Permissions: {
    IsAdministrator: boolean;
    DocumentAccessLevel: string;
    UserDepartmentId?: string;
    SelectedDepartmentIds?: string[];
    Actions?: { Name: string; IsAllowed: boolean }[];
  };
}

/** PUT /api/v1/edo/employees/{userId} body: the changeable part of the Employee read shape; absent = unchanged. */
export interface EmployeeUpdateInput {
  Position?: string;
  CanBeInvitedForChat?: boolean;
  Permissions?: {
    UserDepartmentId?: string;
    IsAdministrator?: boolean;
    DocumentAccessLevel?: string;
    SelectedDepartmentIds?: string[];
    Actions?: { Name: string; IsAllowed: boolean }[];
    AuthorizationPermission?: { IsBlocked: boolean; Comment?: string };
  };
}

/** Binary content of a document, streamed from the operator. */
export interface EntityContent {
  fileName: string;
  contentType: string;
  /** Bytes, when the operator sent Content-Length. */
  length?: number;
  body: Readable;
}

export interface EdoOperator {
  /** The configured box id, as stored. */
  readonly boxId: string;
  listDocuments(filter: DocumentsFilter): Promise<OperatorJson>;
  getDocument(messageId: string, entityId: string): Promise<OperatorJson>;
  getContent(messageId: string, entityId: string): Promise<EntityContent>;
  sendDocument(input: SendInput): Promise<OperatorJson>;
  searchDocuments(input: SearchInput): Promise<OperatorJson>;
  /** Deletes a message, or one document of it when `documentId` (= entityId) is given. */
  deleteDocument(messageId: string, documentId?: string): Promise<void>;
  getEvents(input: EventsInput): Promise<OperatorJson>;
  listEmployees(page: number, count: number): Promise<OperatorJson>;
  getMyEmployee(): Promise<OperatorJson>;
  getEmployee(userId: string): Promise<OperatorJson>;
  createEmployee(input: EmployeeCreateInput): Promise<OperatorJson>;
  updateEmployee(userId: string, input: EmployeeUpdateInput): Promise<OperatorJson>;
  deleteEmployee(userId: string): Promise<void>;
  listOrganizations(): Promise<OperatorJson>;
  currentOrganization(): Promise<OperatorJson>;
  searchOrganizations(inn: string, kpp?: string): Promise<OperatorJson>;
  listCounteragents(input: CounteragentsInput): Promise<OperatorJson>;
  /** The access token this client holds (obtained / expires), or null before its first call. */
  tokenStatus?(): TokenStatus | null;
  /** Releases connections. */
  close(): Promise<void>;
}

/** The access token a running client holds: when it was obtained by a refresh and when it expires. */
export interface TokenStatus {
  obtainedAt: Date;
  expiresAt: Date;
}

/** Builds an operator client for a stored connection; `onRotated` persists a rotated refresh token. */
export type OperatorFactory = (connection: EdoConnection, onRotated: (refreshToken: string) => Promise<void>) => EdoOperator;

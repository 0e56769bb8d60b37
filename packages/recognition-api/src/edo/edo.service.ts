import type { Clock, IdSource } from '@app/shared';
import { invalid } from '../errors.js';
import type {
  CounteragentsInput,
  DocumentsFilter,
  EmployeeCreateInput,
  EmployeeUpdateInput,
  EntityContent,
  OperatorJson,
  SearchInput,
  SendInput,
  SendMode,
} from './edo.port.js';
import type { EdoSession } from './edo-session.js';
import { checkHealth, type EdoHealth } from './edo-health.js';
import * as check from './edo-validate.js';
import { withDefaultMetadata } from './send-defaults.js';
import { resolveSendMode } from './send-mode.js';

/** POST /api/v1/edo/documents/send body as it arrives (spec shape plus our optional `Mode`/`IsDraft`). */
export type SendRequest = Omit<SendInput, 'operationId' | 'mode'> & { Mode?: SendMode; IsDraft?: boolean };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPERATION_ID = /^[0-9A-Za-z._:-]{1,100}$/;

/** Query of the documents list as it arrives (dates as text; `timestampFrom/To` ISO). */
export type DocumentsRequest = Omit<DocumentsFilter, 'timestampFrom' | 'timestampTo'> & { timestampFrom?: string; timestampTo?: string };

/**
 * The e-document gateway (Spec: E-document operator gateway): validates what the schemas cannot (422 naming the
 * field, before anything reaches the operator), then makes one operator call. Errors are `ApiError`s with EDO_* codes.
 */
export class EdoService {
  constructor(
    private readonly session: EdoSession,
    private readonly ids: IdSource,
    private readonly clock: Clock,
  ) {}

  private op() {
    return this.session.operator();
  }

  /** GET /api/v1/edo/health: 200 `{status:'connected', authenticated, organizations_count, box_id}` or 503 with the reason. */
  health(): Promise<{ ok: boolean; body: EdoHealth }> {
    return checkHealth(this.session);
  }

  async listDocuments(q: DocumentsRequest): Promise<OperatorJson> {
    const window = check.documentsWindow(q);
    return (await this.op()).listDocuments({ ...q, ...window });
  }

  async getDocument(messageId: string, entityId: string): Promise<OperatorJson> {
    return (await this.op()).getDocument(messageId, entityId);
  }

  /** The configured box id (the source of imported documents). @throws ApiError EDO_NOT_CONFIGURED. */
  async boxId(): Promise<string> {
    return (await this.op()).boxId;
  }

  async getContent(messageId: string, entityId: string): Promise<EntityContent> {
    return (await this.op()).getContent(messageId, entityId);
  }

  /**
   * The operation id of a send: the query's `operationId` or the `Idempotency-Key` header (the same value if both),
   * else a new UUID. The route returns it with every answer so a retry after a timeout or 5xx posts nothing twice.
   * @throws ApiError 422 VALIDATION_ERROR for a malformed key or two different keys.
   */
  operationId(fromQuery: string | undefined, fromHeader: string | undefined): string {
    if (fromHeader !== undefined && !OPERATION_ID.test(fromHeader))
      throw invalid('Idempotency-Key', 'must be 1–100 characters of A–Z, a–z, 0–9, ".", "_", ":" or "-"');
    if (fromQuery !== undefined && fromHeader !== undefined && fromQuery !== fromHeader)
      throw invalid('Idempotency-Key', `differs from the operationId query parameter ("${fromQuery}"); send one of them`);
    return fromQuery ?? fromHeader ?? this.ids.uuid();
  }

  /**
   * POST /api/v1/edo/documents/send: the mode resolved (send-mode.ts), Nonformalized defaults applied
   * (send-defaults.ts), one PostMessage with `operationId`. Answers Diadoc's Message plus `OperationId` and `Mode`.
   */
  async send(body: SendRequest, operationId: string): Promise<OperatorJson> {
    check.attachmentsBase64(body.DocumentAttachments);
    const mode = resolveSendMode(body);
    const now = this.clock.now();
    const DocumentAttachments = body.DocumentAttachments.map((a) => withDefaultMetadata(a, now));
    const message = await (await this.op()).sendDocument({ ToBoxId: body.ToBoxId, DocumentAttachments, mode, operationId });
    return { ...message, OperationId: operationId, Mode: mode };
  }

  async search(input: SearchInput): Promise<OperatorJson> {
    return (await this.op()).searchDocuments(input);
  }

  async deleteDocument(messageId: string, documentId?: string): Promise<{ deleted: true }> {
    await (await this.op()).deleteDocument(messageId, documentId);
    return { deleted: true };
  }

  /**
   * GET /api/v1/edo/events. The spec's `afterEventId` takes what a client has of the last event: its `EventId` (a
   * GUID) goes to Diadoc as `afterEventId`, anything else is an `IndexKey` and goes as `afterIndexKey`. The answer
   * adds `CursorSentAs` naming the parameter used.
   * @throws ApiError 422 when both afterEventId and afterIndexKey are given (Diadoc refuses the pair).
   */
  async events(q: { afterEventId?: string; afterIndexKey?: string; limit?: number }): Promise<OperatorJson> {
    if (q.afterEventId !== undefined && q.afterIndexKey !== undefined) throw invalid('afterIndexKey', 'cannot be combined with afterEventId');
    const byEventId = q.afterEventId !== undefined && GUID.test(q.afterEventId);
    const cursor = byEventId ? { afterEventId: q.afterEventId } : { afterIndexKey: q.afterIndexKey ?? q.afterEventId };
    const list = await (await this.op()).getEvents({ ...cursor, limit: q.limit });
    const sentAs = byEventId ? 'afterEventId' : cursor.afterIndexKey !== undefined ? 'afterIndexKey' : undefined;
    return sentAs ? { ...list, CursorSentAs: sentAs } : list;
  }

  async employees(page = 1, count = 50): Promise<OperatorJson> {
    return (await this.op()).listEmployees(page, count);
  }

  async myEmployee(): Promise<OperatorJson> {
    return (await this.op()).getMyEmployee();
  }

  async employee(userId: string): Promise<OperatorJson> {
    return (await this.op()).getEmployee(userId);
  }

  /** Passed through as Diadoc takes it; rules such as those of `SelectedDepartments` are Diadoc's to apply. */
  async createEmployee(input: EmployeeCreateInput): Promise<OperatorJson> {
    return (await this.op()).createEmployee(input);
  }

  async updateEmployee(userId: string, input: EmployeeUpdateInput): Promise<OperatorJson> {
    return (await this.op()).updateEmployee(userId, input);
  }

  async deleteEmployee(userId: string): Promise<{ deleted: true }> {
    await (await this.op()).deleteEmployee(userId);
    return { deleted: true };
  }

  async organizations(): Promise<OperatorJson> {
    return (await this.op()).listOrganizations();
  }

  async currentOrganization(): Promise<OperatorJson> {
    return (await this.op()).currentOrganization();
  }

  async searchOrganizations(inn: string, kpp?: string): Promise<OperatorJson> {
    return (await this.op()).searchOrganizations(inn, kpp);
  }

  async counteragents(q: CounteragentsInput): Promise<OperatorJson> {
    check.counteragents(q);
    return (await this.op()).listCounteragents(q);
  }
}

import type { IdSource } from '@app/shared';
import type {
  CounteragentsInput,
  DocumentsFilter,
  EmployeeCreateInput,
  EmployeeUpdateInput,
  EntityContent,
  OperatorJson,
  SearchInput,
  SendInput,
} from './edo.port.js';
import type { EdoSession } from './edo-session.js';
import { checkHealth, type EdoHealth } from './edo-health.js';
import * as check from './edo-validate.js';

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

  async getContent(messageId: string, entityId: string): Promise<EntityContent> {
    return (await this.op()).getContent(messageId, entityId);
  }

  /** POST /api/v1/edo/documents/send; `operationId` defaults to a new UUID (stable across our own retries). */
  async send(body: Omit<SendInput, 'operationId'>, operationId?: string): Promise<OperatorJson> {
    check.attachmentsBase64(body.DocumentAttachments);
    return (await this.op()).sendDocument({ ...body, operationId: operationId ?? this.ids.uuid() });
  }

  async search(input: SearchInput): Promise<OperatorJson> {
    return (await this.op()).searchDocuments(input);
  }

  async deleteDocument(messageId: string, documentId?: string): Promise<{ deleted: true }> {
    await (await this.op()).deleteDocument(messageId, documentId);
    return { deleted: true };
  }

  /** GET /api/v1/edo/events: `afterEventId` carries Diadoc's `afterIndexKey` cursor (BoxEvent.IndexKey). */
  async events(afterEventId?: string, limit?: number): Promise<OperatorJson> {
    return (await this.op()).getEvents({ afterIndexKey: afterEventId, limit });
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

  async createEmployee(input: EmployeeCreateInput): Promise<OperatorJson> {
    check.employeeCreate(input);
    return (await this.op()).createEmployee(input);
  }

  async updateEmployee(userId: string, input: EmployeeUpdateInput): Promise<OperatorJson> {
    check.accessLevel(input.Permissions);
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

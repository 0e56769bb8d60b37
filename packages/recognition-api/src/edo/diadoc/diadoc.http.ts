import { ApiError } from '../../errors.js';
import type { CallKind } from './diadoc-errors.js';
import { DiadocClient, type DiadocClientOptions } from './diadoc-client.js';
import { isoToTicks, parseDiadocJson, withIsoTimestamps } from './diadoc-json.js';
import { toEmployeeToCreate, toEmployeeToUpdate, toMessageToPost } from './diadoc-translate.js';
import type {
  CounteragentsInput,
  DocumentsFilter,
  EdoOperator,
  EmployeeCreateInput,
  EmployeeUpdateInput,
  EntityContent,
  EventsInput,
  OperatorJson,
  SearchInput,
  SendInput,
} from '../edo.port.js';

/**
 * The Kontur.Diadoc adapter of the operator port: each method is one Diadoc call (mapping table in
 * docs/edo-gateway.md; facts in reference/diadoc-api.md §3). Answers pass through with ISO twins added to
 * `…TimestampTicks` fields.
 */
export class DiadocOperator implements EdoOperator {
  private readonly http: DiadocClient;
  constructor(
    readonly boxId: string,
    client: DiadocClientOptions,
  ) {
    this.http = new DiadocClient(client);
  }

  private async get(path: string, query: Record<string, string | number | boolean | undefined>, kind?: CallKind): Promise<OperatorJson> {
    return withIsoTimestamps(await this.http.json({ method: 'GET', path, query, idempotent: true, kind }));
  }

  listDocuments(f: DocumentsFilter) {
    return this.get('/V3/GetDocuments', {
      boxId: this.boxId,
      filterCategory: f.filterCategory,
      counteragentBoxId: f.counteragentBoxId,
      fromDocumentDate: f.fromDocumentDate,
      toDocumentDate: f.toDocumentDate,
      timestampFromTicks: f.timestampFrom && isoToTicks(f.timestampFrom).toString(),
      timestampToTicks: f.timestampTo && isoToTicks(f.timestampTo).toString(),
      documentNumber: f.documentNumber,
      afterIndexKey: f.afterIndexKey,
      count: f.count,
      sortDirection: f.sortDirection,
    });
  }

  getDocument(messageId: string, entityId: string) {
    return this.get('/V3/GetDocument', { boxId: this.boxId, messageId, entityId }, 'document');
  }

  /**
   * GetEntityContent streamed through, named by GetDocument's `FileName`. A signature (or any other non-document
   * entity of the message) has no Document, so Diadoc's GetDocument answers 404: its content is still served, named
   * `<entityId>.p7s` (a detached CMS signature; docs/edo-gateway.md).
   */
  async getContent(messageId: string, entityId: string): Promise<EntityContent> {
    const doc = await this.http
      .json({
        method: 'GET',
        path: '/V3/GetDocument',
        query: { boxId: this.boxId, messageId, entityId, injectEntityContent: false },
        idempotent: true,
        kind: 'document',
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'EDO_NOT_FOUND') return null;
        throw err;
      });
    const res = await this.http.raw(
      { method: 'GET', path: '/V4/GetEntityContent', query: { boxId: this.boxId, messageId, entityId }, idempotent: true, kind: 'document' },
      true,
    );
    const len = Number(res.headers['content-length']);
    const named = doc && typeof doc.FileName === 'string' && doc.FileName ? doc.FileName : undefined;
    return {
      fileName: named ?? (doc ? `${entityId}.bin` : `${entityId}.p7s`),
      contentType: String(res.headers['content-type'] ?? 'application/octet-stream'),
      length: Number.isFinite(len) ? len : undefined,
      body: res.body,
    };
  }

  /**
   * PostMessage with an operationId: a repeat is safe, so it may be retried; 204 = still in progress. The time
   * allowed grows with the body (DiadocClient.timeoutFor), so a 70 MB message is not cut off mid-upload.
   */
  async sendDocument(input: SendInput): Promise<OperatorJson> {
    const body = JSON.stringify(toMessageToPost(this.boxId, input));
    const spec = {
      method: 'POST' as const,
      path: '/V3/PostMessage',
      query: { operationId: input.operationId },
      body,
      idempotent: true,
      timeoutMs: this.http.timeoutFor(Buffer.byteLength(body)),
    };
    const res = await this.http.raw(spec);
    if (res.status === 204) {
      await res.body.dump();
      const after = Number(res.headers['retry-after'] ?? 5);
      throw new ApiError(
        'EDO_CONFLICT',
        `the operator is still processing operation ${input.operationId}; repeat the same request with operationId=${input.operationId} after ${after} s. Diadoc answered 204`,
        { 'retry-after': String(after) },
      );
    }
    return withIsoTimestamps(parseDiadocJson(await res.body.text()) as OperatorJson);
  }

  async searchDocuments(s: SearchInput) {
    const body = { QueryString: s.query, Count: s.count, FirstIndex: s.firstIndex, Scope: s.scope };
    return withIsoTimestamps(
      await this.http.json({ method: 'POST', path: '/V3/SearchDocflows', query: { boxId: this.boxId }, body, idempotent: true }),
    );
  }

  async deleteDocument(messageId: string, documentId?: string): Promise<void> {
    await this.http.json({
      method: 'POST',
      path: '/Delete',
      query: { boxId: this.boxId, messageId, documentId },
      idempotent: false,
      kind: 'document',
    });
  }

  getEvents(e: EventsInput) {
    return this.get('/V8/GetNewEvents', { boxId: this.boxId, afterIndexKey: e.afterIndexKey, afterEventId: e.afterEventId, limit: e.limit });
  }

  listEmployees(page: number, count: number) {
    return this.get('/GetEmployees', { boxId: this.boxId, page, count }, 'admin');
  }

  getMyEmployee() {
    return this.get('/GetMyEmployee', { boxId: this.boxId });
  }

  getEmployee(userId: string) {
    return this.get('/GetEmployee', { boxId: this.boxId, userId });
  }

  async createEmployee(input: EmployeeCreateInput) {
    return withIsoTimestamps(
      await this.http.json({
        method: 'POST',
        path: '/CreateEmployee',
        query: { boxId: this.boxId },
        body: toEmployeeToCreate(input),
        idempotent: false,
        kind: 'admin',
      }),
    );
  }

  async updateEmployee(userId: string, input: EmployeeUpdateInput) {
    return withIsoTimestamps(
      await this.http.json({
        method: 'POST',
        path: '/UpdateEmployee',
        query: { boxId: this.boxId, userId },
        body: toEmployeeToUpdate(input),
        idempotent: false,
        kind: 'admin',
      }),
    );
  }

  /** DeleteEmployee is idempotent at Diadoc (already deleted → 200), so it may be retried. */
  async deleteEmployee(userId: string): Promise<void> {
    await this.http.json({ method: 'POST', path: '/DeleteEmployee', query: { boxId: this.boxId, userId }, idempotent: true, kind: 'admin' });
  }

  listOrganizations() {
    return this.get('/GetMyOrganizations', { autoRegister: false });
  }

  currentOrganization() {
    return this.get('/GetOrganization', { boxId: this.boxId });
  }

  searchOrganizations(inn: string, kpp?: string) {
    return this.get('/GetOrganizationsByInnKpp', { inn, kpp });
  }

  listCounteragents(c: CounteragentsInput) {
    return this.get('/V3/GetCounteragents', {
      myBoxId: this.boxId,
      counteragentStatus: c.counteragentStatus,
      afterIndexKey: c.afterIndexKey,
      query: c.query,
      pageSize: c.pageSize,
    });
  }

  tokenStatus() {
    return this.http.tokenStatus();
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

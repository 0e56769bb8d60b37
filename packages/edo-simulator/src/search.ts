import { decodeXml } from './xml.js';
import { documentIndexKey } from './documents.js';
import type { SimContext } from './http/context.js';
import { badRequest } from './http/diadoc-error.js';
import { boxIdOf } from './box-ids.js';
import type { SimDocument } from './model.js';
import { ticksToIso } from './ticks.js';

const SCOPES = ['SearchScopeAny', 'SearchScopeIncoming', 'SearchScopeOutgoing', 'SearchScopeDeleted', 'SearchScopeInternal'];

function inScope(d: SimDocument, scope: string): boolean {
  if (scope === 'SearchScopeDeleted') return d.isDeleted;
  if (d.isDeleted) return false;
  if (scope === 'SearchScopeIncoming') return d.direction === 'Inbound';
  if (scope === 'SearchScopeOutgoing') return d.direction === 'Outbound';
  return scope !== 'SearchScopeInternal';
}

/** Full-text haystack: number, title, file name, counteragent name and INN, and the XML text itself. */
const haystack = (d: SimDocument) =>
  [d.number, d.title, d.fileName, d.counteragent.fullName, d.counteragent.inn, safeText(d.content)].join('\n').toLowerCase();

/**
 * POST /V3/SearchDocflows: `SearchDocflowsRequest {QueryString (required), Count ≤ 100 (default 100), FirstIndex,
 * Scope}` → `{Documents: [DocumentWithDocflowV3], HaveMoreDocuments}`; newest first; next page at FirstIndex + Count.
 */
export function searchDocflows(ctx: SimContext, body: unknown) {
  const b = (body ?? {}) as { QueryString?: unknown; Count?: unknown; FirstIndex?: unknown; Scope?: unknown };
  if (typeof b.QueryString !== 'string' || b.QueryString.trim() === '') throw badRequest('QueryString is required');
  const count = b.Count === undefined ? 100 : Number(b.Count);
  const first = b.FirstIndex === undefined ? 0 : Number(b.FirstIndex);
  if (!Number.isInteger(count) || count < 1 || count > 100) throw badRequest('Count must be 1..100');
  if (!Number.isInteger(first) || first < 0) throw badRequest('FirstIndex must be >= 0');
  const scope = b.Scope === undefined ? 'SearchScopeAny' : String(b.Scope);
  if (!SCOPES.includes(scope)) throw badRequest(`Unknown Scope '${scope}'`);
  const words = b.QueryString.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = ctx.state.documents
    .filter((d) => inScope(d, scope) && words.every((w) => haystack(d).includes(w)))
    .sort((x, y) => (x.sendTicks < y.sendTicks ? 1 : -1));
  const page = hits.slice(first, first + count);
  return {
    Documents: page.map((d) => ({
      DocumentId: { MessageId: d.messageId, EntityId: d.entityId },
      LastEvent: { EventId: d.entityId, Timestamp: { DateTime: ticksToIso(d.lastModificationTicks), Ticks: d.lastModificationTicks } },
      DocumentInfo: {
        DocumentDirection: d.direction,
        IsRead: d.isRead,
        IsDeleted: d.isDeleted,
        TypeNamedId: d.typeNamedId,
        Function: d.func,
        Version: d.version,
        CounteragentBoxId: boxIdOf(d.counteragent.boxGuid),
        DocumentDate: d.date,
        DocumentNumber: d.number,
        Title: d.title,
        FileName: d.fileName,
        IndexKey: documentIndexKey(d),
        CustomDocumentId: d.customDocumentId,
      },
      Docflow: {
        IsFinished: d.state === 'Finished',
        DocflowStatus: { PrimaryStatus: { Severity: d.state === 'Finished' ? 'Success' : 'Info', StatusText: d.state } },
      },
    })),
    HaveMoreDocuments: first + count < hits.length,
  };
}

/** The content as text for the search, in its declared encoding; an unknown encoding is searched as nothing. */
function safeText(content: Buffer): string {
  try {
    return decodeXml(content);
  } catch {
    return '';
  }
}

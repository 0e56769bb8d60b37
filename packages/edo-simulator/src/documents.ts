import { createHash } from 'node:crypto';
import { normalizeBoxId } from './box-ids.js';
import { badRequest } from './http/diadoc-error.js';
import type { SimDocument, SimState } from './model.js';
import { parseDdmmyyyy } from './ticks.js';

/** TypeNamedId values the simulated box accepts (a subset of GET /V3/GetDocumentTypes), with their versions. */
export const DOCUMENT_TYPES: Record<string, string[]> = {
  // utd970_05_02_01 and utd820_05_01_02_hyphen: the versions of Diadoc's published PostMessage bodies (include/postmessage_*).
  UniversalTransferDocument: ['utd970_05_03_01', 'utd970_05_02_01', 'utd820_05_01_02_hyphen', 'utd820_05_01_01_hyphen', 'utd_05_01_05'],
  Invoice: ['invoice_05_03_01', 'invoice_05_02_01'],
  Nonformalized: ['v1'],
  XmlTorg12: ['tovtorg_05_01_02', 'torg12_05_01_02'],
  XmlAcceptanceCertificate: ['act_05_01_02'],
};

/** Status suffixes of `filterCategory` (GetDocuments.rst lists about 35; the simulator knows these). */
const SUFFIXES = [
  '',
  'NotRead',
  'Finished',
  'NotFinished',
  'WaitingForRecipientSignature',
  'WithRecipientSignature',
  'WaitingForSenderSignature',
  'RequestsMySignature',
  'NotRevoked',
  'HaveToCreateReceipt',
  'RevocationAccepted',
  'RecipientSignatureRequestRejected',
  'InvalidSenderSignature',
  'Approved',
  'Disapproved',
  'WaitingForResolution',
];

const matchesSuffix = (d: SimDocument, suffix: string): boolean => {
  switch (suffix) {
    case '':
    case 'NotRevoked':
      return true;
    case 'NotRead':
      return !d.isRead;
    case 'Finished':
    case 'WithRecipientSignature':
      return d.state === 'Finished';
    case 'NotFinished':
      return d.state !== 'Finished';
    case 'WaitingForRecipientSignature':
    case 'WaitingForSenderSignature':
      return d.state === suffix;
    case 'RequestsMySignature':
      return d.direction === 'Inbound' && d.state === 'WaitingForRecipientSignature';
    default:
      return false;
  }
};

/** A parsed `filterCategory` (`<TypeNamedId|Any>.<Inbound|Outbound|Internal|Proxy><Status?>`); 400 when malformed. */
export function parseFilterCategory(value: string): (d: SimDocument) => boolean {
  const m = /^([A-Za-z0-9]+)\.(Inbound|Outbound|Internal|Proxy)([A-Za-z]*)$/.exec(value);
  if (!m || (m[1] !== 'Any' && !DOCUMENT_TYPES[m[1]!]) || !SUFFIXES.includes(m[3]!)) {
    throw badRequest(`Invalid filterCategory: '${value}'`, 'InvalidFilterCategory');
  }
  const [, type, direction, suffix] = m;
  return (d) => (type === 'Any' || d.typeNamedId === type) && d.direction === direction && matchesSuffix(d, suffix!);
}

/** The ticks GetDocuments sorts by: send time of outbound, delivery time of inbound documents. */
export const sortTicks = (d: SimDocument): bigint => (d.direction === 'Outbound' ? d.sendTicks : d.deliveryTicks);
/** A GUID in .NET byte order as upper-case hex, as Diadoc writes ids into its IndexKeys. */
export function netGuidHex(guid: string): string {
  const h = guid.replace(/-/g, '').toUpperCase();
  const swap = (s: string) => s.match(/../g)!.reverse().join('');
  return `${swap(h.slice(0, 8))}${swap(h.slice(8, 12))}${swap(h.slice(12, 16))}${h.slice(16)}`;
}

/** The part of every document IndexKey before the time (box and filter in Diadoc's keys; a constant here). */
const KEY_PREFIX = createHash('sha384').update('edo-simulator document index').digest('hex').toUpperCase();

/** Length of a document IndexKey: that of the key in Diadoc's own GetDocuments example (howto/example_receive_invoice.rst). */
export const DOCUMENT_INDEX_KEY_LENGTH = 214;

/**
 * IndexKey of a document in GetDocuments, with the length and shape of Diadoc's (214 upper-case hex digits ending
 * in the message and entity GUIDs in .NET byte order, the time before them). Fixed width, so text order = time order.
 */
export const documentIndexKey = (d: SimDocument): string =>
  `${KEY_PREFIX}${'0'.repeat(34)}1046${sortTicks(d).toString(16).toUpperCase().padStart(16, '0')}${netGuidHex(d.messageId)}${netGuidHex(d.entityId)}`;

export interface DocumentsQuery {
  filterCategory: string;
  counteragentBoxId?: string;
  fromDocumentDate?: string;
  toDocumentDate?: string;
  timestampFromTicks?: string;
  timestampToTicks?: string;
  documentNumber?: string;
  afterIndexKey?: string;
  sortDirection?: 'Ascending' | 'Descending';
  count?: number;
}

function dateFilter(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const d = parseDdmmyyyy(value);
  if (!d) throw badRequest(`Invalid ${name}: '${value}', expected dd.MM.yyyy`);
  return d;
}

/** GET /V3/GetDocuments: filter, order, page after `afterIndexKey` (exclusive); TotalCount capped at 1000. */
export function queryDocuments(state: SimState, q: DocumentsQuery) {
  const byCategory = parseFilterCategory(q.filterCategory);
  if ((q.fromDocumentDate || q.toDocumentDate) && (q.timestampFromTicks || q.timestampToTicks))
    throw badRequest('Document dates cannot be combined with timestamps');
  if (q.documentNumber && (q.timestampFromTicks || q.timestampToTicks)) throw badRequest('documentNumber cannot be combined with timestamps');
  const count = q.count ?? 100;
  if (!Number.isInteger(count) || count < 0 || count > 100) throw badRequest(`Invalid count: ${q.count}, expected 0..100`);
  const from = dateFilter('fromDocumentDate', q.fromDocumentDate);
  const to = dateFilter('toDocumentDate', q.toDocumentDate);
  const tFrom = q.timestampFromTicks ? BigInt(q.timestampFromTicks) : undefined;
  const tTo = q.timestampToTicks ? BigInt(q.timestampToTicks) : undefined;
  const cp = q.counteragentBoxId ? normalizeBoxId(q.counteragentBoxId) : undefined;
  const desc = q.sortDirection === 'Descending';
  const all = state.documents
    .filter((d) => !d.isDeleted && byCategory(d))
    .filter((d) => !cp || normalizeBoxId(d.counteragent.boxGuid) === cp)
    .filter((d) => !q.documentNumber || d.number === q.documentNumber)
    .filter((d) => {
      const t = parseDdmmyyyy(d.date)!;
      return (!from || t >= from) && (!to || t <= to);
    })
    .filter((d) => (tFrom === undefined || sortTicks(d) >= tFrom) && (tTo === undefined || sortTicks(d) <= tTo))
    .map((d) => ({ d, key: documentIndexKey(d) }))
    .sort((a, b) => (a.key < b.key ? -1 : 1) * (desc ? -1 : 1));
  const after = q.afterIndexKey;
  if (after !== undefined && !/^[0-9A-F]{214}$/.test(after)) throw badRequest(`Invalid afterIndexKey: '${after}'`);
  const rest = after === undefined ? all : all.filter((x) => (desc ? x.key < after : x.key > after));
  return { total: Math.min(all.length, 1000), page: rest.slice(0, count), hasMore: rest.length > count || all.length > 1000 };
}

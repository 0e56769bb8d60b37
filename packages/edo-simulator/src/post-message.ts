import { createHash } from 'node:crypto';
import { normalizeBoxId } from './box-ids.js';
import { DOCUMENT_TYPES, documentIndexKey } from './documents.js';
import { appendEvent, type SimContext } from './http/context.js';
import { badRequest, DiadocError } from './http/diadoc-error.js';
import type { SimDocument } from './model.js';
import { messageJson } from './render.js';
import { decodeXml } from './xml.js';
import { ddmmyyyy, ticksOf } from './ticks.js';
import { checkAgainstUpdXsd, isUpd503 } from './xsd-check.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function bytes(v: unknown, field: string, required: boolean): Buffer | null {
  if (v === undefined || v === null || v === '') {
    if (required) throw badRequest(`${field} is required`);
    return null;
  }
  if (typeof v !== 'string' || !BASE64.test(v)) throw badRequest(`${field} is not valid base64`);
  return Buffer.from(v, 'base64');
}

/** A checked attachment before it gets its ids: where it was in the request, whether the UPD schema applies. */
type Unsaved = SimDocument & { field: string; upd503: boolean; signed: boolean };

/** The one document of an attachment, checked as Diadoc checks it (type, version, content, signature, metadata). */
function attachment(
  ctx: SimContext,
  a: unknown,
  i: number,
  to: SimDocument['counteragent'],
  flags: { isDraft: boolean; delaySend: boolean },
): Unsaved {
  const { isDraft, delaySend } = flags;
  const f = `DocumentAttachments[${i}]`;
  if (!isObj(a)) throw badRequest(`${f} must be an object`);
  if (typeof a.TypeNamedId !== 'string') throw badRequest(`${f}.TypeNamedId must be a string (a document type name)`, 'InvalidTypeNamedId');
  const versions = DOCUMENT_TYPES[a.TypeNamedId];
  if (!versions) throw badRequest(`${f}.TypeNamedId '${a.TypeNamedId}' is not a known document type`, 'InvalidTypeNamedId');
  const version = a.Version === undefined ? versions[0]! : String(a.Version);
  if (!versions.includes(version)) throw badRequest(`${f}.Version '${version}' is not supported for ${a.TypeNamedId}`, 'InvalidDocumentVersion');
  const sc = a.SignedContent;
  if (!isObj(sc)) throw badRequest(`${f}.SignedContent is required`);
  const content = bytes(sc.Content, `${f}.SignedContent.Content`, true)!;
  const signature = bytes(sc.Signature, `${f}.SignedContent.Signature`, false);
  if (!signature && sc.SignWithTestSignature !== true && !isDraft && !delaySend)
    throw badRequest(`${f}: a signature is required (or SignWithTestSignature on a test box, IsDraft or DelaySend)`, 'SignatureRequired');
  // docsend.rst: a delayed-send document cannot carry a signature.
  if (delaySend && (signature || sc.SignWithTestSignature))
    throw badRequest(`${f}: a DelaySend document cannot carry a signature`, 'SignatureNotAllowed');
  const metadata = Array.isArray(a.Metadata) ? (a.Metadata as { Key: string; Value: string }[]) : [];
  const now = ctx.clock.now();
  let number = metadata.find((m) => m.Key === 'DocumentNumber')?.Value ?? '';
  let date = metadata.find((m) => m.Key === 'DocumentDate')?.Value ?? ddmmyyyy(now);
  let fileName = metadata.find((m) => m.Key === 'FileName')?.Value;
  let upd503 = false;
  if (a.TypeNamedId === 'Nonformalized') {
    if (!fileName) throw badRequest(`${f}.Metadata: FileName is required for Nonformalized documents`, 'MetadataRequired');
  } else {
    let xml: string;
    try {
      xml = decodeXml(content);
    } catch {
      throw badRequest(`${f}.SignedContent.Content declares an unknown encoding`, 'InvalidXml');
    }
    const n = /НомерДок="([^"]*)"/.exec(xml),
      d = /ДатаДок="(\d{2}\.\d{2}\.\d{4})"/.exec(xml),
      id = /ИдФайл="([^"]+)"/.exec(xml);
    if (!n || !d) throw badRequest(`${f}.SignedContent.Content is not a valid ${a.TypeNamedId} XML (НомерДок/ДатаДок missing)`, 'InvalidXml');
    [number, date, fileName] = [n[1]!, d[1]!, fileName ?? `${id?.[1] ?? 'document'}.xml`];
    upd503 = isUpd503(a.TypeNamedId, xml);
  }
  const ticks = ticksOf(now, 0);
  return {
    field: f,
    upd503,
    signed: Boolean(signature || sc.SignWithTestSignature),
    messageId: '',
    entityId: '',
    signatureEntityId: null,
    direction: 'Outbound',
    counteragent: to,
    typeNamedId: a.TypeNamedId,
    func: String(a.Function ?? 'default'),
    version,
    fileName: fileName!,
    content,
    signature: signature ?? (sc.SignWithTestSignature ? createHash('sha512').update(content).digest() : null),
    number,
    date,
    title: `${a.TypeNamedId} № ${number} от ${date}`,
    sendTicks: ticks,
    deliveryTicks: ticks,
    lastModificationTicks: ticks,
    isRead: true,
    isDeleted: false,
    isDraft,
    state: isDraft ? 'Draft' : delaySend ? 'WaitingForSenderSignature' : 'WaitingForRecipientSignature',
    customDocumentId: String(a.CustomDocumentId ?? ''),
    comment: String(a.Comment ?? ''),
    metadata,
  };
}

/**
 * POST /V3/PostMessage: `MessageToPost {FromBoxId (required, ours), ToBoxId, DocumentAttachments (1–40), IsDraft,
 * DelaySend}`; a DelaySend document is stored unsigned among the outbound ones, waiting for the sender's signature.
 * `operationId` (default: MD5 of the body) makes it idempotent: a repeat returns the message already created.
 */
export async function postMessage(ctx: SimContext, body: unknown, operationId?: string): Promise<SimDocument[]> {
  if (!isObj(body)) throw badRequest('Request body must be a MessageToPost JSON object');
  const opId = operationId ?? createHash('md5').update(JSON.stringify(body)).digest('hex');
  const known = ctx.state.operations.get(opId);
  if (known) return ctx.state.documents.filter((d) => d.messageId === known);
  if (typeof body.FromBoxId !== 'string') throw badRequest('FromBoxId is required');
  if (normalizeBoxId(body.FromBoxId) !== normalizeBoxId(ctx.state.ours.boxGuid))
    throw new DiadocError(403, 'Http.Forbidden', `Access to box ${body.FromBoxId} is denied`);
  const to = ctx.state.counteragents.find((c) => typeof body.ToBoxId === 'string' && normalizeBoxId(c.boxGuid) === normalizeBoxId(body.ToBoxId));
  if (!to) throw badRequest(`ToBoxId '${String(body.ToBoxId ?? '')}' is not a counteragent box`, 'RecipientBoxNotFound');
  if (to.counteragentStatus !== 'IsMyCounteragent')
    throw new DiadocError(409, 'CounteragentRequired', 'The recipient accepts documents only from its counteragents');
  const list = body.DocumentAttachments;
  if (!Array.isArray(list) || list.length === 0 || list.length > 40) throw badRequest('DocumentAttachments must hold 1 to 40 documents');
  if (body.IsDraft === true && body.DelaySend === true) throw badRequest('IsDraft and DelaySend cannot be combined');
  const flags = { isDraft: body.IsDraft === true, delaySend: body.DelaySend === true };
  const checked = list.map((a, i) => attachment(ctx, a, i, to, flags));
  // The XSD check runs before any id is drawn or anything stored: a refused message leaves no trace.
  const xsd = ctx.updXsd;
  if (xsd) for (const c of checked) if (c.upd503) await checkAgainstUpdXsd(c.content, xsd, c.field);
  // The same operation may have been stored while xmllint ran.
  const raced = ctx.state.operations.get(opId);
  if (raced) return ctx.state.documents.filter((d) => d.messageId === raced);
  const messageId = ctx.ids.uuid();
  const docs: SimDocument[] = checked.map(({ field: _f, upd503: _u, signed, ...d }) => ({
    ...d,
    messageId,
    entityId: ctx.ids.uuid(),
    signatureEntityId: signed ? ctx.ids.uuid() : null,
  }));
  ctx.state.documents.push(...docs);
  ctx.state.operations.set(opId, messageId);
  appendEvent(ctx, { kind: 'message', messageId, ticks: docs[0]!.sendTicks });
  return docs;
}

/** The Message JSON of a posted message. */
export const render = (ctx: SimContext, docs: SimDocument[]) => messageJson(ctx.state, docs, documentIndexKey);

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseOperatorJson } from '../../src/edo/operator-json.js';

/**
 * The JSON examples printed in the steering side's Diadoc reference note (`../shared/reference/diadoc-api.md`
 * beside the repository, §6), made complete by a mechanical expansion of the note's elisions, so a contract test
 * can replay them on every pass. The rules (docs/edo-gateway.md, "Contract tests against the reference note"):
 *
 * 1. `[…]` becomes `[]`. An object holding only a comment that names a shape printed in the note
 *    (`{ /* Document *\/ }`, `{ /* Message, see above *\/ }`) holds that example; other comments are removed.
 * 2. A `<name>` string is a placeholder the caller fills (`<box>`, `<cp box>`, `<b64>`, `<attachment id>`).
 * 3. Every other string holding `…` keeps its printed characters and has the `…` filled to the real shape:
 *    - `IndexKey`: the key shape of its list ({@link INDEX_KEYS}: documents 214 upper-case hex, counteragents 48
 *      upper-case hex, events 32 base64 characters);
 *    - `…@diadoc.ru`: a box id of 32 hex digits;
 *    - a key ending in `Id` or `IdGuid` (not `CustomDocumentId`, `FnsParticipantId`): a GUID `8-4-4-4-12`;
 *    - anything else is text: `…` becomes `example`.
 *    The note abbreviates one id in several places (`2a20…@diadoc.ru` and `2a208d03-…` are one box, `00000000-…`
 *    is the head department printed in full elsewhere), so an elided id is completed from the longest id printed
 *    anywhere in the note that starts with its printed digits. Filled characters come from SHA-256 of those digits,
 *    or, for a bare `…`, of the block name and the JSON path: two bare ids differ, and every run expands alike.
 */

type Json = unknown;
type Obj = Record<string, unknown>;

/** Repository root (this file is packages/recognition-api/test/edo/). */
const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
/** The steering side's note, `shared/reference/diadoc-api.md` beside the repository (absent on some machines). */
export const NOTE_PATH = resolve(REPO_ROOT, '../shared/reference/diadoc-api.md');
/** The note's headings and json blocks, copied into the repository so the test runs where the note is absent. */
export const COPY_PATH = resolve(import.meta.dirname, 'fixtures/diadoc-reference-examples.md');
/** What the test reads: DIADOC_REFERENCE, else the note when it is there, else the committed copy. */
export const REFERENCE_PATH = resolve(process.env.DIADOC_REFERENCE ?? (existsSync(NOTE_PATH) ? NOTE_PATH : COPY_PATH));

/** Real IndexKey shapes per example block (docs/edo-gateway.md, "Cursors are opaque"). */
export const INDEX_KEYS: Record<string, { alphabet: 'HEX' | 'base64'; length: number }> = {
  GetDocuments: { alphabet: 'HEX', length: 214 },
  GetCounteragents: { alphabet: 'HEX', length: 48 },
  GetNewEvents: { alphabet: 'base64', length: 32 },
};

const ELLIPSIS = '…';
const NOT_GUIDS = new Set(['CustomDocumentId', 'FnsParticipantId']);
/** Marks an object that held only a comment naming a printed shape (rule 1). */
const SHAPE = '\u0000shape';

/** The ```json blocks of the note under each bold paragraph heading (`**GetDocuments**` → ['{…}']), in order. */
export function jsonBlocksByHeading(markdown: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  let heading = '';
  let open: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line.trim() === '```') {
        blocks.set(heading, [...(blocks.get(heading) ?? []), open.join('\n')]);
        open = undefined;
      } else open.push(line);
      continue;
    }
    const bold = /^\*\*([^*]+)\*\*/.exec(line);
    if (bold) heading = bold[1]!.replace(/:$/, '').trim();
    else if (line.trim() === '```json') open = [];
  }
  return blocks;
}

/** Rule 1, then JSON with integers beyond 2^53 (ticks) as bigint, as the adapter reads them. */
export function parseBlock(block: string, text: string): Json {
  const plain = text
    .replace(/\{\s*\/\*\s*(\w+)[^*]*\*\/\s*\}/g, (_m, shape: string) => `{"${SHAPE.replace('\u0000', '\\u0000')}":"${shape}"}`)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\[\s*…\s*\]/g, '[]');
  try {
    return parseOperatorJson(plain);
  } catch (err) {
    throw new Error(`the ${block} example of the Diadoc reference note is not JSON after expansion: ${(err as Error).message}`);
  }
}

const isIdKey = (key: string) => /(Id|IdGuid)$/.test(key) && !NOT_GUIDS.has(key);
/** The hex digits an id string prints (`2a208d03-…` → `2a208d03`, `95f6…@diadoc.ru` → `95f6`), or undefined. */
function printedDigits(key: string, value: string): string | undefined {
  if (!isIdKey(key) && !value.endsWith('@diadoc.ru')) return undefined;
  const digits = value.replace('@diadoc.ru', '').replace(ELLIPSIS, '').replace(/-/g, '');
  return /^[0-9a-fA-F]{0,32}$/.test(digits) ? digits : undefined;
}

/** Every id's printed digits in `tree` (for rule 3's "longest printed id"). */
export function printedIds(tree: Json, key = '', out: string[] = []): string[] {
  if (typeof tree === 'string') {
    const d = printedDigits(key, tree);
    if (d) out.push(d); // '' for a bare …
  } else if (Array.isArray(tree)) for (const v of tree) printedIds(v, key, out);
  else if (tree && typeof tree === 'object') for (const [k, v] of Object.entries(tree)) printedIds(v, k, out);
  return out;
}

/** Hex digits derived from `seed`, as many as asked. */
function filler(seed: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += createHash('sha256').update(`${seed}#${i}`).digest('hex');
  return out.slice(0, length);
}

const guid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/** What expansion needs beside the value: the block, the ids printed in the note, the placeholders' values. */
export interface ExpandContext {
  block: string;
  ids: string[];
  placeholders: Record<string, string>;
}

/** 32 hex digits of the elided id printing `printed` (rule 3). */
function completeId(ctx: ExpandContext, path: string, printed: string): string {
  if (!printed) return filler(`${ctx.block}${path}`, 32);
  const longest = ctx.ids
    .filter((d) => d.toLowerCase().startsWith(printed.toLowerCase()))
    .sort((a, b) => b.length - a.length || a.localeCompare(b))[0]!;
  return longest.length === 32 ? longest : longest + filler(longest.toLowerCase(), 32 - longest.length);
}

/** Rules 2 and 3 for one string `value` under `key` at `path`. */
function expandString(ctx: ExpandContext, key: string, path: string, value: string): string {
  const placeholder = /^<([^>]+)>$/.exec(value);
  if (placeholder) {
    const filled = ctx.placeholders[placeholder[1]!];
    if (filled === undefined) throw new Error(`${ctx.block}${path}: no value given for the placeholder ${value}`);
    return filled;
  }
  if (!value.includes(ELLIPSIS)) return value;
  const shape = INDEX_KEYS[ctx.block];
  if (key === 'IndexKey' && shape) {
    const printed = value.replace(ELLIPSIS, '');
    const tail = shape.length - printed.length;
    const fill = filler(`${ctx.block}${path}`, tail * 2);
    return printed + (shape.alphabet === 'HEX' ? fill.slice(0, tail).toUpperCase() : Buffer.from(fill, 'hex').toString('base64').slice(0, tail));
  }
  const printed = printedDigits(key, value);
  if (printed !== undefined) {
    const hex = completeId(ctx, path, printed ?? '');
    return value.endsWith('@diadoc.ru') ? `${hex}@diadoc.ru` : guid(hex);
  }
  if (isIdKey(key)) throw new Error(`${ctx.block}${path}: ${value} is not the start of an id`);
  return value.replace(ELLIPSIS, 'example');
}

/** Rules 2 and 3 over a parsed block; shape markers (rule 1) are left for {@link loadDiadocReference}. */
export function expandValue(ctx: ExpandContext, value: Json, key = '', path = ''): Json {
  if (typeof value === 'string') return expandString(ctx, key, path, value);
  if (Array.isArray(value)) return value.map((v, i) => expandValue(ctx, v, key, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandValue(ctx, v, k, `${path}.${k}`)]));
  return value;
}

/** Replaces every shape marker in `tree` by the named example (rule 1). */
function fillShapes(tree: Json, shapes: Record<string, Obj>): Json {
  if (Array.isArray(tree)) return tree.map((v) => fillShapes(v, shapes));
  if (!tree || typeof tree !== 'object') return tree;
  const name = (tree as Obj)[SHAPE];
  if (typeof name === 'string') {
    if (!shapes[name]) throw new Error(`the Diadoc reference note names a shape it does not print: ${name}`);
    return shapes[name];
  }
  return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, fillShapes(v, shapes)]));
}

/** The note's examples, expanded. */
export interface DiadocReference {
  getDocuments: Obj;
  /** The PostMessage request (`MessageToPost`) with the placeholders `<box>`, `<cp box>`, `<b64>` filled. */
  postMessageRequest(placeholders: Record<string, string>): Obj;
  /** The `Message` answer of PostMessage; `<attachment id>` = its Attachment entity's id, `DocumentInfo` = the Document. */
  message: Obj;
  getNewEvents: Obj;
  /** GetEmployees; GetMyEmployee answers one of its `Employees` (the note: "the same Employee shape"). */
  getEmployees: Obj;
  getCounteragents: Obj;
  /** The counteragent's `Organization`, which GetMyOrganizations/GetOrganizationsByInnKpp list and GetOrganization answers. */
  organization: Obj;
}

/**
 * Reads and expands the note. Throws (the contract test fails, it does not skip) when the note is absent or a block
 * is missing, naming the path and DIADOC_REFERENCE.
 */
export function loadDiadocReference(path = REFERENCE_PATH): DiadocReference {
  if (!existsSync(path))
    throw new Error(
      `Diadoc reference note not found at ${path}: it is the steering side's shared/reference/diadoc-api.md beside the repository; set DIADOC_REFERENCE to its path`,
    );
  const blocks = jsonBlocksByHeading(readFileSync(path, 'utf8'));
  const raw = (name: string, heading = name, index = 0) => {
    const text = blocks.get(heading)?.[index];
    if (text === undefined) throw new Error(`${path}: no json block #${index + 1} under the heading **${heading}**`);
    return parseBlock(name, text);
  };
  const postMessage = 'PostMessage request / response';
  const trees = {
    GetDocuments: raw('GetDocuments'),
    PostMessage: raw('PostMessage', postMessage, 0),
    Message: raw('Message', postMessage, 1),
    GetNewEvents: raw('GetNewEvents'),
    GetEmployees: raw('GetEmployees'),
    GetCounteragents: raw('GetCounteragents'),
  };
  const ids = Object.values(trees).flatMap((t) => printedIds(t));
  const expand = (block: keyof typeof trees, placeholders: Record<string, string> = {}) =>
    expandValue({ block, ids, placeholders }, trees[block]) as Obj;
  const getDocuments = expand('GetDocuments');
  // The signature names its attachment by `<attachment id>`; the attachment's own id is elided too.
  const draft = expand('Message', { 'attachment id': '' });
  const attachmentId = String((draft.Entities as Obj[]).find((e) => e.EntityType === 'Attachment')?.EntityId);
  const Document = (getDocuments.Documents as Obj[])[0]!;
  const message = fillShapes(expand('Message', { 'attachment id': attachmentId }), { Document }) as Obj;
  const getCounteragents = expand('GetCounteragents');
  return {
    getDocuments,
    postMessageRequest: (p) => expand('PostMessage', p),
    message,
    getNewEvents: fillShapes(expand('GetNewEvents'), { Document, Message: message }) as Obj,
    getEmployees: expand('GetEmployees'),
    getCounteragents,
    organization: (getCounteragents.Counteragents as Obj[])[0]!.Organization as Obj,
  };
}

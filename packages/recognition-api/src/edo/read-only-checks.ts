import { Value } from 'typebox/value';
import type { EdoOperator, OperatorJson } from './edo.port.js';
import { DocumentsQuery, EventsQuery } from './edo.schemas.js';

/** One check's outcome; `skip` when the box has nothing to check it with (or the user may not call it). */
export interface CheckResult {
  name: string;
  outcome: 'pass' | 'fail' | 'skip';
  detail: string;
}

/** What earlier checks saw and later ones reuse (a document, the operator's cursors). */
interface Seen {
  doc?: OperatorJson;
  documentKey?: string;
  event?: OperatorJson;
}
type Check = (op: EdoOperator, seen: Seen) => Promise<string>;
class Skip extends Error {}

const list = (o: OperatorJson, key: string) => (Array.isArray(o[key]) ? (o[key] as OperatorJson[]) : []);
const expectThat = (ok: unknown, what: string) => {
  if (!ok) throw new Error(what);
};
const norm = (id: unknown) =>
  String(id ?? '')
    .toLowerCase()
    .replace(/@diadoc\.ru$/, '')
    .replace(/-/g, '');

/**
 * Read-only contract checks of an operator adapter: what `npm run edo:live` runs against the real Diadoc and the
 * contract tests run against the simulator. Nothing here writes to the box.
 */
const CHECKS: [string, Check][] = [
  [
    'GetMyOrganizations lists the configured box',
    async (op) => {
      const orgs = list(await op.listOrganizations(), 'Organizations');
      expectThat(
        orgs.some((o) => list(o, 'Boxes').some((b) => norm(b.BoxId) === norm(op.boxId) || norm(b.BoxIdGuid) === norm(op.boxId))),
        `box ${op.boxId} not among ${orgs.length} organizations`,
      );
      return `${orgs.length} organization(s)`;
    },
  ],
  [
    'GetOrganization?boxId= answers with an INN',
    async (op) => {
      const org = await op.currentOrganization();
      expectThat(/^\d{10}(\d{2})?$/.test(String(org.Inn)), `Inn ${String(org.Inn)}`);
      return `${String(org.FullName ?? org.ShortName)} (INN ${String(org.Inn)})`;
    },
  ],
  [
    'V3/GetDocuments pages by afterIndexKey without repeats',
    async (op, seen) => {
      const first = await op.listDocuments({ filterCategory: 'Any.Inbound', count: 3 });
      const docs = list(first, 'Documents');
      seen.doc = docs[0];
      if (docs.length) seen.documentKey = String(docs.at(-1)!.IndexKey);
      if (!first.HasMoreResults) return `${docs.length} inbound document(s), one page`;
      const next = list(
        await op.listDocuments({ filterCategory: 'Any.Inbound', count: 3, afterIndexKey: String(docs.at(-1)!.IndexKey) }),
        'Documents',
      );
      const ids = new Set(docs.map((d) => d.EntityId));
      expectThat(
        next.every((d) => !ids.has(d.EntityId)),
        'the second page repeats a document',
      );
      return `pages of 3: ${docs.length} + ${next.length}`;
    },
  ],
  [
    'V3/GetDocument and V4/GetEntityContent agree on the size',
    async (op, seen) => {
      if (!seen.doc) throw new Skip('no inbound document in the box');
      const { MessageId, EntityId } = seen.doc as { MessageId: string; EntityId: string };
      const doc = await op.getDocument(MessageId, EntityId);
      const content = await op.getContent(MessageId, EntityId);
      let bytes = 0;
      for await (const c of content.body) bytes += (c as Buffer).length;
      const size = Number((doc.Content as { Size?: unknown } | undefined)?.Size);
      expectThat(!Number.isFinite(size) || size === bytes, `Content.Size ${size} ≠ ${bytes} bytes`);
      return `${content.fileName}, ${bytes} bytes`;
    },
  ],
  [
    'V8/GetNewEvents pages by IndexKey',
    async (op, seen) => {
      const page = list(await op.getEvents({ limit: 2 }), 'Events');
      seen.event = page.at(-1);
      if (page.length < 2) return `${page.length} event(s)`;
      const next = list(await op.getEvents({ afterIndexKey: String(page.at(-1)!.IndexKey), limit: 2 }), 'Events');
      expectThat(
        next.every((e) => e.EventId !== page[0]!.EventId && e.EventId !== page[1]!.EventId),
        'the cursor repeated an event',
      );
      return `${page.length} + ${next.length} events`;
    },
  ],
  [
    "the gateway's query schemas take the operator's own cursors",
    async (_op, seen) => {
      // The adapter is called directly above; a client calls the HTTP routes, whose schemas must let these through.
      if (!seen.documentKey && !seen.event) throw new Skip('no document or event to take a cursor from');
      const taken: string[] = [];
      if (seen.documentKey) {
        expectThat(Value.Check(DocumentsQuery, { filterCategory: 'Any.Inbound', afterIndexKey: seen.documentKey }), 'afterIndexKey refused');
        taken.push(`document IndexKey (${seen.documentKey.length} chars)`);
      }
      for (const key of ['EventId', 'IndexKey'] as const) {
        const v = seen.event?.[key];
        if (v === undefined) continue;
        expectThat(Value.Check(EventsQuery, { afterEventId: String(v) }), `events afterEventId=${key} refused`);
        taken.push(`event ${key} (${String(v).length} chars)`);
      }
      return taken.join(', ');
    },
  ],
  [
    'V3/SearchDocflows answers',
    async (op, seen) => {
      const q = String(seen.doc?.DocumentNumber ?? '') || 'счет';
      const res = await op.searchDocuments({ query: q, count: 5 });
      expectThat(Array.isArray(res.Documents), 'no Documents array');
      return `"${q}": ${list(res, 'Documents').length} hit(s)`;
    },
  ],
  ['GetMyEmployee returns the token user', async (op) => String(((await op.getMyEmployee()).User as OperatorJson | undefined)?.Login ?? '?')],
  [
    'GetEmployees (administrators only)',
    async (op) => {
      try {
        return `${String((await op.listEmployees(1, 5)).TotalCount)} employee(s)`;
      } catch (err) {
        if ((err as { code?: string }).code === 'EDO_FORBIDDEN') throw new Skip('the token user is not an administrator');
        throw err;
      }
    },
  ],
  [
    'GetOrganizationsByInnKpp finds our INN',
    async (op) => {
      const inn = String((await op.currentOrganization()).Inn);
      expectThat(
        list(await op.searchOrganizations(inn), 'Organizations').some((o) => o.Inn === inn),
        `INN ${inn} not found`,
      );
      return `INN ${inn}`;
    },
  ],
  ['V3/GetCounteragents answers', async (op) => `${list(await op.listCounteragents({ pageSize: 5 }), 'Counteragents').length} on the first page`],
];

/** Runs every check in order; a failure does not stop the others. */
export async function runReadOnlyChecks(op: EdoOperator): Promise<CheckResult[]> {
  const seen: { doc?: OperatorJson } = {};
  const out: CheckResult[] = [];
  for (const [name, check] of CHECKS) {
    try {
      out.push({ name, outcome: 'pass', detail: await check(op, seen) });
    } catch (err) {
      out.push({
        name,
        outcome: err instanceof Skip ? 'skip' : 'fail',
        detail: err instanceof Error ? `${(err as { code?: string }).code ?? ''} ${err.message}`.trim() : String(err),
      });
    }
  }
  return out;
}

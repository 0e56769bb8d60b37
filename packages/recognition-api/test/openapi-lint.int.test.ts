import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness.js';

// /openapi.json is complete and usable — real response schemas on every route
// (no `Type.Unknown()`), lint-clean under Redocly's recommended rules, and types generated from it compile a client.
let h: Harness;
let doc: string;
beforeAll(async () => {
  h = await makeHarness();
  doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).body;
}, 120_000); // PGlite start plus the migrations: slow on a loaded machine
afterAll(async () => h.close());

type Operation = { operationId?: string; summary?: string; security?: unknown[]; responses: Record<string, unknown> };
const operations = (spec: { paths: Record<string, Record<string, Operation>> }) =>
  Object.entries(spec.paths).flatMap(([path, m]) => Object.entries(m).map(([verb, op]) => ({ path, verb, op })));

/** JSON pointers of every empty schema `{}` (how `Type.Unknown()` shows up) anywhere in the document. */
function emptySchemas(node: unknown, at = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => emptySchemas(v, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${key}`;
    const isObj = value !== null && typeof value === 'object' && !Array.isArray(value);
    if (['schema', 'items', 'additionalProperties', 'not'].includes(key) && isObj && Object.keys(value).length === 0) out.push(here);
    if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v && typeof v === 'object' && Object.keys(v).length === 0) out.push(`${here}/${i}`);
      });
    }
    if (['properties', 'patternProperties'].includes(key) && isObj) {
      for (const [name, v] of Object.entries(value)) if (v && typeof v === 'object' && Object.keys(v).length === 0) out.push(`${here}/${name}`);
    }
    out.push(...emptySchemas(value, here));
  }
  return out;
}

describe('recognition OpenAPI document', () => {
  it('has no error or warning under Redocly recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: doc, absoluteRef: 'recognition-openapi.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer ?? ''}`);
    expect(found).toEqual([]);
  });

  it('every operation has an operationId and a response schema, no schema is empty, the panel is hidden', () => {
    const spec = JSON.parse(doc) as { paths: Record<string, Record<string, Operation>>; security: unknown[] };
    const ops = operations(spec);
    // 5 documents routes + 2 callback routes + health + 18 gateway routes + EDO import and EDO draft (issue 24)
    expect(ops.length).toBe(28);
    expect(ops.filter((o) => !o.op.operationId).map((o) => `${o.verb} ${o.path}`)).toEqual([]);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    expect(ops.filter((o) => !o.op.responses['200'] && !o.op.responses['202']).map((o) => `${o.verb} ${o.path}`)).toEqual([]);
    expect(emptySchemas(spec)).toEqual([]);
    expect(Object.keys(spec.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
    expect(spec.security).toEqual([{ apiKey: [] }]);
    // Spec: Endpoints, "All endpoints except GET /api/v1/health need the header X-API-Key".
    expect(ops.filter((o) => Array.isArray(o.op.security) && o.op.security.length === 0).map((o) => o.path)).toEqual(['/api/v1/health']);
  });

  it('export declares its two media types: JSON for json/accounting, windows-1251 XML bytes with a file name for upd-xml', () => {
    const spec = JSON.parse(doc) as { paths: Record<string, Record<string, Operation>> };
    const ok = spec.paths['/api/v1/documents/{id}/export']!.get!.responses['200'] as {
      content: Record<string, { schema: { type?: string; format?: string; anyOf?: unknown[] } }>;
      headers: Record<string, { description: string }>;
    };
    expect(Object.keys(ok.content).sort()).toEqual(['application/json', 'application/xml']);
    expect(ok.content['application/json']!.schema.anyOf).toHaveLength(2);
    expect(ok.content['application/xml']!.schema).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(ok.headers).sort()).toEqual(['content-disposition', 'x-schema-validated']);
    expect(ok.headers['content-disposition']!.description).toMatch(/filename/);
  });

  it('generates TypeScript types (openapi-typescript) that a small client compiles against', async () => {
    const types = astToString(await openapiTS(JSON.parse(doc)));
    const dir = mkdtempSync(join(tmpdir(), 'recognition-openapi-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), types);
      writeFileSync(
        join(dir, 'client.ts'),
        `import type { paths, operations } from './api';
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type DocumentRecord = Json<paths['/api/v1/documents/{id}']['get']['responses'][200]>;
type ListPage = Json<operations['listDocuments']['responses'][200]>;
type Queued = Json<operations['recognizeDocument']['responses'][202]>;
type EdoHealth = Json<operations['getEdoHealth']['responses'][200]>;
type Employees = Json<operations['listEdoEmployees']['responses'][200]>;
export function sellerInn(d: DocumentRecord): string | null {
  return d.status === 'completed' ? d.data.seller.inn : null;
}
export const units = (d: DocumentRecord): (string | null)[] => (d.status === 'completed' ? d.data.items.map((i) => i.unit.code) : []);
export const totalWithVat = (d: DocumentRecord): number | null => (d.status === 'completed' ? d.data.totals.amount_with_nds : null);
export const failure = (d: DocumentRecord): string | null => (d.status === 'failed' ? d.error.code : null);
export const pageSize = (p: ListPage): number => p.data.length + p.limit + p.offset + p.total;
export const pollUrl = (q: Queued): string => q.poll_url;
export const boxes = (h: EdoHealth): number => h.organizations_count;
export const logins = (e: Employees): string[] => e.Employees.map((x) => x.User.Login);
// @ts-expect-error: the pending form has no data (the types are real, not any)
export const noData = (d: Extract<DocumentRecord, { status: 'queued' | 'processing' }>) => d.data;
`,
      );
      const tsc = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
      execFileSync(
        process.execPath,
        [tsc, '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', join(dir, 'client.ts')],
        { stdio: 'pipe' },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

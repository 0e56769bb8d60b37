import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../harness.js';

// the published OpenAPI document is complete and usable — lint-clean under Redocly's recommended
// rules, and types generated from it compile a small client.
let w: World;
let doc: string;
beforeAll(async () => {
  w = await makeWorld();
  doc = (await w.app.inject({ method: 'GET', url: '/openapi.json' })).body;
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

describe('delivery OpenAPI document', () => {
  it('has no error or warning under Redocly recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: doc, absoluteRef: 'delivery-openapi.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer ?? ''}`);
    expect(found).toEqual([]);
  });

  it('every operation has an operationId and the HMAC security headers (health excepted)', () => {
    const spec = JSON.parse(doc) as { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>>; security: unknown[] };
    const ops = Object.entries(spec.paths).flatMap(([path, m]) => Object.entries(m).map(([verb, op]) => ({ path, verb, op })));
    expect(ops.length).toBeGreaterThanOrEqual(27);
    expect(ops.filter((o) => !o.op.operationId).map((o) => `${o.verb} ${o.path}`)).toEqual([]);
    expect(spec.security).toEqual([{ ApiKey: [], Timestamp: [], RequestId: [], Signature: [] }]);
    expect(ops.filter((o) => o.path.startsWith('/health')).every((o) => Array.isArray(o.op.security) && o.op.security.length === 0)).toBe(true);
  });

  it('generates TypeScript types (openapi-typescript) that a small client compiles against', async () => {
    const types = astToString(await openapiTS(JSON.parse(doc)));
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    writeFileSync(join(dir, 'api.d.ts'), types);
    writeFileSync(
      join(dir, 'client.ts'),
      `import type { paths, operations } from './api';
type OrderBody = operations['createOrder']['requestBody'] extends { content: { 'application/json': infer B } } ? B : never;
type Created = paths['/v1/orders']['post']['responses'][201]['content']['application/json'];
type Menu = paths['/v1/points/{pointId}/menu']['get']['responses'][200]['content']['application/json'];
export const order: OrderBody = {
  schemaVersion: 1, source: 'website', externalOrderId: 'W-1', externalPointId: '101', deliveryType: 'pickup',
  guest: { name: 'Иван', phone: '+79990000001' }, address: { street: 'Тверская улица', house: '1' },
  items: [{ externalProductId: 'p', quantity: '1', price: { amountMinor: 100, currency: 'RUB' } }], total: { amountMinor: 100, currency: 'RUB' },
};
export const stateOf = (o: Created): string => o.state;
export const itemCount = (m: Menu): number => m.items.length;
// @ts-expect-error: schemaVersion is the literal 1
export const wrong: OrderBody = { ...order, schemaVersion: 2 };
`,
    );
    const tsc = join(import.meta.dirname, '..', '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', join(dir, 'client.ts')],
      { stdio: 'pipe' },
    );
  }, 60_000);
});

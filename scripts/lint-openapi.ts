/**
 * `npm run lint`, OpenAPI part: builds both services in-process on a throwaway PGlite, fetches their
 * `/openapi.json` (recognition: `recognitionOpenApiDocument` of the service) and lints each under Redocly's recommended rules (`@redocly/openapi-core`, the engine of
 * `@redocly/cli lint`). Prints every finding and exits 1 when there is one. The test suite checks the same and
 * also compiles a client against types generated from the documents (openapi-lint.int.test.ts of each service).
 */
import { randomBytes } from 'node:crypto';
import { buildApp, createOutboxOrderEvents, createServices, MIGRATIONS_DIR as DELIVERY_MIGRATIONS, SecretBox } from '@app/delivery-api';
import { recognitionOpenApiDocument } from '@app/recognition-api';
import { randomIds, systemClock } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { createConfig, lintFromString } from '@redocly/openapi-core';

async function deliveryDocument(): Promise<string> {
  const db = await openTestDb(DELIVERY_MIGRATIONS);
  const deps = {
    db,
    box: new SecretBox(randomBytes(32)),
    clock: systemClock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    loyalty: null,
    events: createOutboxOrderEvents(randomIds),
  };
  const app = await buildApp(deps, createServices(deps));
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).body;
  await app.close();
  await db.close();
  return doc;
}

const config = await createConfig({ extends: ['recommended'] });
let findings = 0;
for (const [name, source] of [
  ['delivery-api', await deliveryDocument()],
  ['recognition-api', await recognitionOpenApiDocument()],
] as const) {
  const problems = await lintFromString({ source, absoluteRef: `${name}/openapi.json`, config });
  for (const p of problems) console.log(`${name}: ${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer ?? ''}`);
  console.log(`${name} OpenAPI: ${problems.length === 0 ? 'clean' : `${problems.length} finding(s)`} under Redocly recommended`);
  findings += problems.length;
}
process.exit(findings === 0 ? 0 : 1);

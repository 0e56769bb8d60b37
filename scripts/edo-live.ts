/**
 * `npm run edo:live`: the read-only contract checks of the Diadoc adapter against the real Diadoc (not part of
 * `npm test`). Needs DIADOC_CLIENT_ID, DIADOC_CLIENT_SECRET, DIADOC_REFRESH_TOKEN, DIADOC_BOX_ID; optional
 * DIADOC_ISSUER_URL, DIADOC_API_BASE_URL, DIADOC_SCOPE, EDO_TIMEOUT_MS. Nothing is written to the box. If the
 * identity provider rotates the refresh token, the new one is written to ./diadoc-refresh-token (mode 0600),
 * never printed.
 */
import { writeFileSync } from 'node:fs';
import { systemClock } from '@app/shared';
import { loadEdoConfig } from '@app/recognition-api';
import { diadocOperatorFactory } from '@app/recognition-api';
import { DIADOC_DEFAULTS } from '@app/recognition-api';
import { runReadOnlyChecks } from '@app/recognition-api';

const edo = loadEdoConfig(process.env);
if (!edo.seed) {
  console.log('edo:live needs DIADOC_CLIENT_ID, DIADOC_CLIENT_SECRET, DIADOC_REFRESH_TOKEN and DIADOC_BOX_ID (see docs/edo-gateway.md)');
  process.exit(2);
}
const s = edo.seed;
const conn = {
  operator: 'diadoc' as const,
  clientId: s.clientId!,
  clientSecret: s.clientSecret!,
  refreshToken: s.refreshToken!,
  boxId: s.boxId!,
  issuerUrl: s.issuerUrl ?? DIADOC_DEFAULTS.issuerUrl,
  apiBaseUrl: s.apiBaseUrl ?? DIADOC_DEFAULTS.apiBaseUrl,
  scope: s.scope ?? DIADOC_DEFAULTS.scope,
};
const op = diadocOperatorFactory({ clock: systemClock, timeoutMs: edo.timeoutMs })(conn, async (token) => {
  writeFileSync('diadoc-refresh-token', `${token}\n`, { mode: 0o600 });
  console.log('note: the identity provider rotated the refresh token; the new one is in ./diadoc-refresh-token');
});
console.log(`Diadoc ${conn.apiBaseUrl}, identity ${conn.issuerUrl}, box ${conn.boxId}`);
const results = await runReadOnlyChecks(op);
await op.close();
for (const r of results) console.log(`${r.outcome.toUpperCase().padEnd(4)}  ${r.name}: ${r.detail}`);
const failed = results.filter((r) => r.outcome === 'fail').length;
console.log(failed ? `${failed} check(s) failed` : 'all read-only checks passed');
process.exit(failed ? 1 : 0);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@app/shared';
import { SEEDED_DOCUMENTS, startEdoSimulator, type RunningEdoSimulator } from '../src/index.js';

/** INN check digits (ФНС): Σ dᵢ·wᵢ mod 11 mod 10; written here independently of docgen. */
function innValid(inn: string): boolean {
  const d = [...inn].map(Number);
  const check = (w: number[]) => (w.reduce((s, x, i) => s + x * d[i]!, 0) % 11) % 10;
  if (inn.length === 10) return check([2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  return inn.length === 12 && check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
}

let sim: RunningEdoSimulator;
const clock = new ManualClock('2026-11-23T09:00:00Z');
beforeAll(async () => (sim = await startEdoSimulator({ clock })));
afterAll(async () => sim.close());

async function token(over: Record<string, string> = {}) {
  const form = { grant_type: 'refresh_token', refresh_token: sim.refreshToken, client_id: sim.clientId, client_secret: sim.clientSecret, ...over };
  return fetch(`${sim.issuerUrl}/connect/token`, { method: 'POST', body: new URLSearchParams(form) });
}
const api = (path: string, bearer?: string, init: RequestInit = {}) =>
  fetch(`${sim.apiUrl}${path}`, {
    ...init,
    headers: { accept: 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...init.headers },
  });

describe('edo-simulator: the seeded box', () => {
  it('our organization and three counteragents have valid INN check digits and KPP', () => {
    const orgs = [sim.state.ours, ...sim.state.counteragents];
    expect(orgs).toHaveLength(4);
    for (const o of orgs) {
      expect(innValid(o.inn)).toBe(true);
      expect(o.kpp).toMatch(/^\d{4}01001$/);
    }
  });

  it('holds ≥ 20 inbound and outbound UPD and invoice documents whose XML names both parties', () => {
    const docs = sim.state.documents;
    expect(docs.length).toBe(SEEDED_DOCUMENTS);
    expect(SEEDED_DOCUMENTS).toBeGreaterThanOrEqual(20);
    expect(new Set(docs.map((d) => `${d.direction} ${d.typeNamedId}`))).toEqual(
      new Set(['Inbound UniversalTransferDocument', 'Inbound Invoice', 'Outbound UniversalTransferDocument', 'Outbound Invoice']),
    );
    for (const d of docs) {
      const xml = d.content.toString('utf8');
      expect(xml).toContain(`ИННЮЛ="${sim.state.ours.inn}"`);
      expect(xml).toContain(`ИННЮЛ="${d.counteragent.inn}"`);
      expect(xml).toContain(`НомерДок="${d.number}" ДатаДок="${d.date}"`);
    }
    expect(sim.state.events).toHaveLength(SEEDED_DOCUMENTS);
    expect(sim.state.employees.length).toBeGreaterThanOrEqual(3);
  });
});

describe('edo-simulator: identity provider and Diadoc errors', () => {
  it('publishes discovery and JWKS; the token endpoint grants refresh tokens only, checking client and token', async () => {
    const disc = (await (await fetch(`${sim.issuerUrl}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
    expect(disc).toMatchObject({ issuer: sim.issuerUrl, token_endpoint: `${sim.issuerUrl}/connect/token` });
    expect(((await (await fetch(disc.jwks_uri)).json()) as { keys: unknown[] }).keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    const ok = await token();
    expect(await ok.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'Diadoc.PublicAPI' });
    expect([(await token({ grant_type: 'client_credentials' })).status]).toEqual([400]);
    expect(await (await token({ client_secret: 'nope' })).json()).toMatchObject({ error: 'invalid_client' });
    expect(await (await token({ refresh_token: 'nope' })).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('Diadoc answers 401 text/plain with X-Diadoc-ErrorCode without a token, and for a token past its hour', async () => {
    const none = await api(`/GetMyOrganizations`);
    expect([none.status, none.headers.get('x-diadoc-errorcode'), none.headers.get('content-type')]).toEqual([
      401,
      'Http.Unauthorized',
      'text/plain; charset=utf-8',
    ]);
    const { access_token } = (await (await token()).json()) as { access_token: string };
    expect((await api('/GetMyOrganizations', access_token)).status).toBe(200);
    clock.advance(3601_000);
    expect((await api('/GetMyOrganizations', access_token)).status).toBe(401);
  });

  it('403 for another box, 400 for out-of-range paging and unwrapped UpdateEmployee fields', async () => {
    const { access_token } = (await (await token()).json()) as { access_token: string };
    const other = sim.state.counteragents[0]!.boxGuid;
    expect((await api(`/V3/GetDocuments?boxId=${other}&filterCategory=Any.Inbound`, access_token)).status).toBe(403);
    const bad = await api(`/GetEmployees?boxId=${sim.boxId}&count=51`, access_token);
    expect([bad.status, await bad.text()]).toEqual([400, 'count must be 1..50']);
    const u = sim.state.employees[1]!.userId;
    const unwrapped = await api(`/UpdateEmployee?boxId=${sim.boxId}&userId=${u}`, access_token, {
      method: 'POST',
      body: JSON.stringify({ Position: 'x' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(unwrapped.status).toBe(400);
  });

  it('switches faults over HTTP: 429 as nginx HTML with Retry-After, then cleared', async () => {
    const { access_token } = (await (await token()).json()) as { access_token: string };
    await fetch(`${sim.apiUrl}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'rate-limit', retryAfter: 12 }),
    });
    const limited = await api(`/V8/GetNewEvents?boxId=${sim.boxId}`, access_token);
    expect([limited.status, limited.headers.get('retry-after'), limited.headers.get('content-type')]).toEqual([429, '12', 'text/html']);
    expect(await limited.text()).toContain('<h1>429 Too Many Requests</h1>');
    await fetch(`${sim.apiUrl}/__sim/faults`, { method: 'DELETE' });
    expect((await api(`/V8/GetNewEvents?boxId=${sim.boxId}&limit=1`, access_token)).status).toBe(200);
  });
});

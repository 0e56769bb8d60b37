import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { setWebhookConfig, WebhookConfigError, listWebhookConfigs, isLoopbackHost } from '../../src/webhooks/webhook-config.js';
import { API_SECRET, newClock, openWebhookDb, resetOutbox, WEBHOOK_SECRET } from './webhook-world.js';

let db: Db;
let box: SecretBox;
beforeAll(async () => ({ db, box } = await openWebhookDb()));
afterAll(async () => db.close());
beforeEach(async () => resetOutbox(db));

const base = { tenantId: 't1', source: 'website', url: 'https://partner.example/hooks', secret: WEBHOOK_SECRET };
const secure = { allowInsecureLoopback: false, clock: newClock() };
const insecure = { allowInsecureLoopback: true, clock: newClock() };

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookConfigError);
  const e = err as WebhookConfigError;
  // A refusal never stores anything.
  expect(await db.query('SELECT 1 FROM webhook_endpoints')).toHaveLength(0);
  return { code: e.code, message: e.message };
}

describe('setWebhookConfig refusals (spec: Events, Configuration)', () => {
  it('http to a non-loopback host, even with the flag', async () => {
    const r = await refusal(setWebhookConfig(db, box, { ...base, url: 'http://partner.example/hooks' }, insecure));
    expect(r.code).toBe('insecure_url');
    expect(r.message).toContain('https');
  });

  it('http to loopback without the flag', async () => {
    const r = await refusal(setWebhookConfig(db, box, { ...base, url: 'http://127.0.0.1:8080/hooks' }, secure));
    expect(r.code).toBe('insecure_url');
    expect(r.message).toContain('WEBHOOKS_ALLOW_INSECURE_LOOPBACK=1');
  });

  it('secret shorter than 32 characters (31)', async () => {
    const r = await refusal(setWebhookConfig(db, box, { ...base, secret: 'x'.repeat(31) }, secure));
    expect(r.code).toBe('secret_too_short');
  });

  it('secret equal to the API HMAC secret of the source', async () => {
    const r = await refusal(setWebhookConfig(db, box, { ...base, secret: `${API_SECRET}-website` }, secure));
    expect(r.code).toBe('secret_equals_api_secret');
    expect(r.message).toContain('key-website-0001');
  });

  it('unknown event type, unknown source, non-http scheme, credentials in the URL', async () => {
    expect((await refusal(setWebhookConfig(db, box, { ...base, events: ['order.created'] }, secure))).code).toBe('unknown_event_type');
    expect((await refusal(setWebhookConfig(db, box, { ...base, events: ['menu.changed'] }, secure))).code).toBe('unknown_event_type');
    expect((await refusal(setWebhookConfig(db, box, { ...base, source: 'nope' }, secure))).code).toBe('unknown_source');
    expect((await refusal(setWebhookConfig(db, box, { ...base, url: 'ftp://partner.example/' }, secure))).code).toBe('invalid_url');
    expect((await refusal(setWebhookConfig(db, box, { ...base, url: 'https://u:p@partner.example/' }, secure))).code).toBe('invalid_url');
  });
});

describe('setWebhookConfig accepts', () => {
  it('https; stores the secret sealed; events default to all (NULL)', async () => {
    await setWebhookConfig(db, box, base, secure);
    const [row] = await db.query<{ url: string; secret_enc: string; events: unknown }>('SELECT url, secret_enc, events FROM webhook_endpoints');
    expect(row!.url).toBe('https://partner.example/hooks');
    expect(row!.secret_enc).not.toContain(WEBHOOK_SECRET);
    expect(box.open(row!.secret_enc)).toBe(WEBHOOK_SECRET);
    expect(row!.events).toBeNull();
  });

  it('http to loopback with the flag; replaces the previous config with an event subset', async () => {
    await setWebhookConfig(db, box, base, secure);
    await setWebhookConfig(db, box, { ...base, url: 'http://[::1]:9999/h', events: ['order.state_changed', 'order.accrued'] }, insecure);
    const list = await listWebhookConfigs(db, 't1');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ url: 'http://[::1]:9999/h', events: ['order.state_changed', 'order.accrued'] });
  });

  it('the API secret of another source or of a revoked key is not a clash', async () => {
    await db.query(`UPDATE credentials SET revoked_at = now() WHERE id = 'cred-app'`);
    await setWebhookConfig(db, box, { ...base, secret: `${API_SECRET}-app` }, secure);
    await setWebhookConfig(db, box, { ...base, source: 'app', secret: `${API_SECRET}-app` }, secure);
    expect(await listWebhookConfigs(db)).toHaveLength(2);
  });

  it('loopback detection', () => {
    expect(['127.0.0.1', '127.9.9.9', '[::1]', 'localhost'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'example.com', '[::2]', '128.0.0.1'].some(isLoopbackHost)).toBe(false);
  });
});

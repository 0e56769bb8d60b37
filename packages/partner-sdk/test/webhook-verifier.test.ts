import { describe, expect, it } from 'vitest';
import { canonicalWebhookString, signWebhook } from '@app/shared';
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationReason } from '../src/index.js';
import { computeWithNodeCrypto, loadVectors, vectorHeaders, vectorTime, type WebhookVector } from './vectors.js';

const vectors = loadVectors();
const v0 = vectors[0]!;

/** Re-signs a (possibly modified) body so that only the property under test is broken. */
function signed(v: WebhookVector, body: string, eventId = v.eventId, timestamp = v.timestamp) {
  const signature = computeWithNodeCrypto(v.secret, timestamp, eventId, body).signature;
  return {
    rawBody: body,
    headers: { 'x-service-event-id': eventId, 'x-service-timestamp': timestamp, 'x-service-signature': signature },
    secret: v.secret,
  };
}

function reasonOf(fn: () => unknown): WebhookVerificationReason {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as WebhookVerificationError).reason;
  }
  throw new Error('verification unexpectedly passed');
}

describe('webhook known-answer vectors', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s: file, node:crypto, shared signer and verifier agree', (_n, v) => {
    const independent = computeWithNodeCrypto(v.secret, v.timestamp, v.eventId, v.body);
    expect(independent).toEqual({ canonical: v.canonical, signature: v.signature });
    expect(canonicalWebhookString(v.timestamp, v.eventId, v.body)).toBe(v.canonical);
    expect(signWebhook(v.secret, v.timestamp, v.eventId, Buffer.from(v.body))).toBe(v.signature);
    const out = verifyWebhook({ rawBody: Buffer.from(v.body), headers: vectorHeaders(v), secret: v.secret, now: vectorTime(v) });
    expect(out).toEqual(JSON.parse(v.body));
  });

  it('accepts a fetch Headers object and mixed-case header names', () => {
    const h = new Headers(vectorHeaders(v0));
    expect(verifyWebhook({ rawBody: v0.body, headers: h, secret: v0.secret, now: vectorTime(v0) }).eventId).toBe(v0.eventId);
    const mixed = { 'X-Service-Event-Id': v0.eventId, 'X-Service-Timestamp': v0.timestamp, 'X-Service-Signature': v0.signature };
    expect(verifyWebhook({ rawBody: v0.body, headers: mixed, secret: v0.secret, now: vectorTime(v0) }).eventId).toBe(v0.eventId);
  });
});

describe('verifyWebhook rejects each broken property', () => {
  const now = vectorTime(v0);
  const body = JSON.parse(v0.body) as Record<string, unknown> & { order: Record<string, unknown> };

  it('body changed by one byte', () => {
    const changed = v0.body.replace('"queued"', '"queuee"');
    expect(changed.length).toBe(v0.body.length);
    expect(reasonOf(() => verifyWebhook({ rawBody: changed, headers: vectorHeaders(v0), secret: v0.secret, now }))).toBe('invalid_signature');
  });

  it('wrong secret', () => {
    expect(reasonOf(() => verifyWebhook({ rawBody: v0.body, headers: vectorHeaders(v0), secret: `${v0.secret}x`, now }))).toBe('invalid_signature');
  });

  it('timestamp outside tolerance, both directions (61 s), and inside at exactly 60 s', () => {
    const old = signed(v0, v0.body, v0.eventId, String(Number(v0.timestamp) - 61));
    expect(reasonOf(() => verifyWebhook({ ...old, now }))).toBe('timestamp_too_old');
    const future = signed(v0, v0.body, v0.eventId, String(Number(v0.timestamp) + 61));
    expect(reasonOf(() => verifyWebhook({ ...future, now }))).toBe('timestamp_in_future');
    const edge = signed(v0, v0.body, v0.eventId, String(Number(v0.timestamp) - 60));
    expect(verifyWebhook({ ...edge, now }).eventId).toBe(v0.eventId);
    expect(reasonOf(() => verifyWebhook({ ...edge, now, toleranceSeconds: 30 }))).toBe('timestamp_too_old');
  });

  it('non-numeric timestamp', () => {
    expect(reasonOf(() => verifyWebhook({ ...signed(v0, v0.body, v0.eventId, '2026-11-23T09:00:00Z'), now }))).toBe('invalid_timestamp');
  });

  it('event id not a UUID', () => {
    const b = JSON.stringify({ ...body, eventId: 'evt_123' });
    expect(reasonOf(() => verifyWebhook({ ...signed(v0, b, 'evt_123'), now }))).toBe('invalid_event_id');
  });

  it('header event id different from the body eventId', () => {
    const other = '11111111-2222-4333-8444-555555555555';
    expect(reasonOf(() => verifyWebhook({ ...signed(v0, v0.body, other), now }))).toBe('event_id_mismatch');
  });

  it('unknown field in the envelope, in the order, in the route', () => {
    const cases = [
      { ...body, extra: 1 },
      { ...body, order: { ...body.order, guestPhone: '+79990000000' } },
      { ...body, order: { ...body.order, route: { source: 'website', externalPointId: '101', terminalGroupId: 'tg' } } },
    ];
    for (const c of cases) expect(reasonOf(() => verifyWebhook({ ...signed(v0, JSON.stringify(c)), now }))).toBe('unknown_field');
  });

  it('missing field and wrongly typed field', () => {
    const { occurredAt: _drop, ...noTime } = body;
    expect(reasonOf(() => verifyWebhook({ ...signed(v0, JSON.stringify(noTime)), now }))).toBe('missing_field');
    const wrong = { ...body, order: { ...body.order, state: 7 } };
    expect(reasonOf(() => verifyWebhook({ ...signed(v0, JSON.stringify(wrong)), now }))).toBe('invalid_field');
  });

  it('trailing data after the JSON value (a second value, garbage)', () => {
    for (const tail of [' {"eventId":"x"}', 'x', '\n[]']) {
      expect(reasonOf(() => verifyWebhook({ ...signed(v0, v0.body + tail), now }))).toBe('trailing_data');
    }
    expect(verifyWebhook({ ...signed(v0, `${v0.body}\n`), now }).eventId).toBe(v0.eventId);
  });

  it('malformed JSON, invalid UTF-8, missing header', () => {
    expect(reasonOf(() => verifyWebhook({ ...signed(v0, '{"eventId": '), now }))).toBe('malformed_json');
    const bad = Buffer.concat([Buffer.from(v0.body.slice(0, -2)), Buffer.from([0xff]), Buffer.from('}}')]);
    const sig = signWebhook(v0.secret, v0.timestamp, v0.eventId, bad);
    const h = { ...vectorHeaders(v0), 'x-service-signature': sig };
    expect(reasonOf(() => verifyWebhook({ rawBody: bad, headers: h, secret: v0.secret, now }))).toBe('invalid_encoding');
    const { 'x-service-signature': _s, ...noSig } = vectorHeaders(v0);
    expect(reasonOf(() => verifyWebhook({ rawBody: v0.body, headers: noSig, secret: v0.secret, now }))).toBe('missing_header');
  });
});

describe('catalog events (sources with the catalog-events switch)', () => {
  const eventId = v0.eventId;
  const body = (point: unknown, type = 'stoplist.updated') => JSON.stringify({ eventId, type, occurredAt: '2026-11-23T09:00:00.000Z', point });
  const verify = (b: string) => verifyWebhook({ ...signed(v0, b), now: vectorTime(v0) });

  it('accepts menu.updated / stoplist.updated with the point and revision, point.status_changed with the status', () => {
    expect(verify(body({ pointId: '101', revision: 'r1' }))).toMatchObject({ type: 'stoplist.updated', point: { pointId: '101', revision: 'r1' } });
    expect(verify(body({ pointId: '101', revision: 'r2' }, 'menu.updated'))).toMatchObject({ point: { revision: 'r2' } });
    expect(verify(body({ pointId: '101', status: 'offline' }, 'point.status_changed'))).toMatchObject({ point: { status: 'offline' } });
  });

  it('refuses unknown or missing point fields, and an order envelope for a catalog type', () => {
    expect(reasonOf(() => verify(body({ pointId: '101', revision: 'r1', menu: [] })))).toBe('unknown_field');
    expect(reasonOf(() => verify(body({ pointId: '101' })))).toBe('missing_field');
    expect(reasonOf(() => verify(JSON.stringify({ eventId, type: 'menu.updated', occurredAt: 'x', order: {} })))).toBe('unknown_field');
  });
});

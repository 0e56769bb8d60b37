import { isIP } from 'node:net';
import { systemClock, type Clock, type Db } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { CredentialsRepo } from '../auth/credentials.repo.js';
import { TenantsRepo } from '../tenants/tenants.repo.js';
import { WebhookEndpointsRepo, type WebhookEndpointInfo } from './endpoints.repo.js';
import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from './outbox.js';

export type { WebhookEndpointInfo };

/** Minimum webhook secret length in characters. Spec: Events, Configuration. */
export const MIN_WEBHOOK_SECRET_LENGTH = 32;

/** Why a configuration was refused; stable codes for the CLI and tests. */
export type WebhookConfigErrorCode =
  | 'invalid_url'
  | 'insecure_url'
  | 'secret_too_short'
  | 'secret_equals_api_secret'
  | 'unknown_event_type'
  | 'unknown_source';

/** A refused webhook configuration; `message` tells the operator what to change. */
export class WebhookConfigError extends Error {
  constructor(
    readonly code: WebhookConfigErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookConfigError';
  }
}

/** Operator input. `events` absent = all types (also types added later). */
export interface WebhookConfigInput {
  tenantId: string;
  source: string;
  url: string;
  secret: string;
  events?: string[];
}

/** 127.0.0.0/8, ::1 and the name `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return isIP(h) === 6 && (h === '::1' || h === '0:0:0:0:0:0:0:1');
}

/** Checks the URL rule: https; http only to loopback and only with `allowInsecureLoopback`. No credentials in the URL. */
export function checkWebhookUrl(raw: string, allowInsecureLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookConfigError('invalid_url', `webhook URL "${raw}" is not an absolute URL`);
  }
  if (url.username || url.password)
    throw new WebhookConfigError('invalid_url', 'webhook URL must not carry user:password (it would be logged); use the webhook secret');
  if (url.protocol === 'https:') return url;
  if (url.protocol !== 'http:') throw new WebhookConfigError('invalid_url', `webhook URL must use https, got ${url.protocol}`);
  if (!isLoopbackHost(url.hostname))
    throw new WebhookConfigError('insecure_url', `webhook URL must use https; plain http is allowed only to a loopback address, not ${url.hostname}`);
  if (!allowInsecureLoopback) {
    throw new WebhookConfigError(
      'insecure_url',
      'plain http to loopback is allowed only when the server runs with WEBHOOKS_ALLOW_INSECURE_LOOPBACK=1 (tests, demo)',
    );
  }
  return url;
}

function checkEvents(events: string[] | undefined): SubscribableEventType[] | null {
  if (events === undefined) return null;
  const unknown = events.filter((e) => !(SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0 || events.length === 0) {
    throw new WebhookConfigError(
      'unknown_event_type',
      `unknown event type(s) ${unknown.join(', ') || '(empty list)'}; known: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
    );
  }
  return [...new Set(events)] as SubscribableEventType[];
}

/**
 * Sets (creates or replaces) the webhook of a tenant+source. Spec: Events, Configuration.
 * Refuses (WebhookConfigError): a non-https URL (http only to loopback and only with `allowInsecureLoopback`),
 * a secret shorter than 32 characters, a secret equal to the API HMAC secret of any non-revoked partner
 * credential of that tenant+source, an unknown event type, an unknown tenant/source. The secret is stored sealed.
 */
export async function setWebhookConfig(
  db: Db,
  box: SecretBox,
  input: WebhookConfigInput,
  opts: { allowInsecureLoopback: boolean; clock?: Clock },
): Promise<void> {
  const now = (opts.clock ?? systemClock).now();
  const url = checkWebhookUrl(input.url, opts.allowInsecureLoopback);
  if (input.secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
    throw new WebhookConfigError(
      'secret_too_short',
      `webhook secret must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters, got ${input.secret.length}`,
    );
  }
  const events = checkEvents(input.events);
  await db.tx(async (q) => {
    if (!(await new TenantsRepo(q).sourceExists(input.tenantId, input.source))) {
      throw new WebhookConfigError('unknown_source', `source ${input.source} of tenant ${input.tenantId} does not exist`);
    }
    const creds = await new CredentialsRepo(q, box, 0).partnerSecretsOf(input.tenantId, input.source);
    const clash = creds.find((c) => c.secret === input.secret);
    if (clash) {
      throw new WebhookConfigError(
        'secret_equals_api_secret',
        `webhook secret must differ from the API HMAC secret of key ${clash.apiKey}; generate a separate secret`,
      );
    }
    await new WebhookEndpointsRepo(q).upsert(
      { tenantId: input.tenantId, source: input.source, url: url.href, secretEnc: box.seal(input.secret), events },
      now,
    );
  });
}

/** Lists endpoints, optionally of one tenant. */
export async function listWebhookConfigs(db: Db, tenantId?: string): Promise<WebhookEndpointInfo[]> {
  return new WebhookEndpointsRepo(db).list(tenantId);
}

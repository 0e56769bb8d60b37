import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isUuid, systemClock, type Clock, type Db } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { purgeDeadWebhooksBatch } from '../retention/retention.repo.js';
import { setWebhookConfig, WebhookConfigError } from './webhook-config.js';
import { deliveriesOfOrder, deliveriesOfSource, replayDead, replayDelivery, showWebhooks, WebhookOperatorError } from './webhook-operator.js';

export const WEBHOOK_USAGE = `delivery-operator webhook <command>

  webhook set         --tenant T --source S --url U (--secret-file F | --secret-env VAR) [--events a,b]
  webhook show        [--tenant T]
  webhook deliveries  --order ID | --source S [--tenant T] [--limit N]
  webhook dead        --source S [--tenant T]
  webhook replay      --delivery ID
  webhook replay-dead --source S --since ISO-TIME [--tenant T]
  webhook purge-dead  --source S --before ISO-TIME [--tenant T]

http:// URLs are accepted only to loopback and only with WEBHOOKS_ALLOW_INSECURE_LOOPBACK=1.
Replays keep the eventId and body; the receiver de-duplicates by eventId. Delivered deliveries are deleted after
WEBHOOK_RETENTION_DAYS (30) by the server; dead ones stay until replayed or deleted with purge-dead.`;

/** What the operator CLI passes in. `env` is read only for --secret-env (default process.env). */
export interface WebhookCliDeps {
  db: Db;
  box: SecretBox;
  config: { webhooksAllowInsecureLoopback: boolean };
  out: (line: string) => void;
  err?: (line: string) => void;
  clock?: Clock;
  env?: Record<string, string | undefined>;
}

const OPTIONS = {
  tenant: { type: 'string' },
  source: { type: 'string' },
  url: { type: 'string' },
  'secret-file': { type: 'string' },
  'secret-env': { type: 'string' },
  events: { type: 'string' },
  order: { type: 'string' },
  delivery: { type: 'string' },
  since: { type: 'string' },
  before: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

function need(v: Values, name: keyof Values): string {
  const x = v[name];
  if (typeof x !== 'string' || x === '') throw new WebhookOperatorError(`--${name} is required`);
  return x;
}

function readSecret(v: Values, env: Record<string, string | undefined>): string {
  if (v['secret-file'] && v['secret-env']) throw new WebhookOperatorError('give --secret-file or --secret-env, not both');
  // Secrets never come on the command line (shell history, ps); a trailing newline of the file is not part of it.
  if (v['secret-file']) return readFileSync(v['secret-file'], 'utf8').replace(/\r?\n$/, '');
  if (v['secret-env']) {
    const s = env[v['secret-env']];
    if (!s) throw new WebhookOperatorError(`environment variable ${v['secret-env']} is empty or not set`);
    return s;
  }
  throw new WebhookOperatorError('--secret-file F or --secret-env VAR is required');
}

const json = (x: unknown) => JSON.stringify(x, null, 2);

/**
 * Runs `webhook <command> ...` (argv without the leading "webhook"); returns the exit code: 0 done, 1 refused
 * (message on `err`), 2 usage. Spec: Events, Configuration (operator-only, no self-service).
 */
export async function runWebhookCommand(argv: string[], deps: WebhookCliDeps): Promise<number> {
  const err = deps.err ?? deps.out;
  const clock = deps.clock ?? systemClock;
  const [cmd, ...rest] = argv;
  try {
    const { values: v } = parseArgs({ args: rest, options: OPTIONS, strict: true, allowPositionals: false }) as { values: Values };
    switch (cmd) {
      case 'set': {
        const events = v.events
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const input = {
          tenantId: need(v, 'tenant'),
          source: need(v, 'source'),
          url: need(v, 'url'),
          secret: readSecret(v, deps.env ?? process.env),
          events,
        };
        await setWebhookConfig(deps.db, deps.box, input, { allowInsecureLoopback: deps.config.webhooksAllowInsecureLoopback, clock });
        deps.out(`webhook of ${input.source} (tenant ${input.tenantId}) set to ${input.url}; events: ${events?.join(', ') ?? 'all'}`);
        return 0;
      }
      case 'show':
        deps.out(json(await showWebhooks(deps.db, v.tenant)));
        return 0;
      case 'deliveries':
        if (v.order) {
          if (!isUuid(v.order)) throw new WebhookOperatorError('--order takes the order id (UUID)');
          deps.out(json(await deliveriesOfOrder(deps.db, v.order)));
        } else {
          deps.out(
            json(await deliveriesOfSource(deps.db, { source: need(v, 'source'), tenantId: v.tenant, limit: v.limit ? Number(v.limit) : undefined })),
          );
        }
        return 0;
      case 'dead':
        deps.out(
          json(
            await deliveriesOfSource(deps.db, {
              source: need(v, 'source'),
              tenantId: v.tenant,
              status: 'dead',
              limit: v.limit ? Number(v.limit) : 1000,
            }),
          ),
        );
        return 0;
      case 'replay': {
        const id = need(v, 'delivery');
        if (!isUuid(id)) throw new WebhookOperatorError('--delivery takes the delivery id (UUID) shown by `webhook deliveries`');
        const d = await replayDelivery(deps.db, id, clock);
        deps.out(`delivery ${d.deliveryId} (event ${d.eventId}) queued again`);
        return 0;
      }
      case 'replay-dead': {
        const since = new Date(need(v, 'since'));
        if (Number.isNaN(since.getTime())) throw new WebhookOperatorError('--since takes an ISO 8601 time, e.g. 2026-11-23T00:00:00Z');
        const n = await replayDead(deps.db, { source: need(v, 'source'), tenantId: v.tenant, since }, clock);
        deps.out(`${n} dead deliveries of ${v.source} since ${since.toISOString()} queued again`);
        return 0;
      }
      case 'purge-dead': {
        const before = new Date(need(v, 'before'));
        if (Number.isNaN(before.getTime())) throw new WebhookOperatorError('--before takes an ISO 8601 time, e.g. 2026-11-23T00:00:00Z');
        const f = { source: need(v, 'source'), tenantId: v.tenant, before };
        let total = 0;
        for (;;) {
          const n = (await purgeDeadWebhooksBatch(deps.db, f, 500)).deliveries; // short transactions of 500
          total += n;
          if (n < 500) break;
        }
        deps.out(`${total} dead deliveries of ${v.source} that died before ${before.toISOString()} deleted with their attempts`);
        return 0;
      }
      default:
        deps.out(WEBHOOK_USAGE);
        return cmd === undefined || cmd === 'help' || v.help ? 0 : 2;
    }
  } catch (e) {
    if (e instanceof WebhookConfigError || e instanceof WebhookOperatorError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`error: ${(e as Error).message}`);
      return e instanceof WebhookConfigError || e instanceof WebhookOperatorError ? 1 : 2;
    }
    throw e;
  }
}

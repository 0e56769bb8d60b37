#!/usr/bin/env node
/**
 * Operator CLI of the delivery API (`npm run operator -- <command>` or `npx delivery-operator <command>`).
 * Uses the same configuration as the server (DATABASE_URL, or PGlite in DATA_DIR; MASTER_KEY).
 * With the embedded PGlite database, stop the server first: PGlite allows one process per data folder.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { SecretBox } from '../auth/secret-box.js';
import { loyaltyFromConfig, openDeliveryDb } from '../server.js';
import { randomIds, systemClock, type Db } from '@app/shared';
import type { DeliveryConfig } from '../config.js';
import { LoyaltyHolds } from '../holds/loyalty-holds.js';
import { orderSettlementEvents } from '../orders/settlement-events.js';
import { OrderSupportService } from '../orders/order-support.js';
import { createOutboxOrderEvents } from '../webhooks/outbox.js';
import { OperatorError } from '../errors.js';
import { OperatorService } from './operator.service.js';
import { Registry } from 'prom-client';
import { createLogger } from '../http/logger.js';
import { noStepObserver } from '../common/recovery-points.js';
import { createLegMetrics } from '../holds/leg-metrics.js';
import { runConsoleCommand } from '../console/console-cli.js';

export const USAGE = `delivery-operator <command> [options]

  tenant create      --id T --name NAME [--checkout-disabled]
  tenant settings    --tenant T [--checkout on|off] [--zone-pricing on|off] [--loyalty on|off]
                     [--bonus-payment-type CODE] [--certificate-payment-type CODE] [--delivery-fee-product ID]
                     [--online-payment-type CODE] [--cash-payment-type CODE] [--card-payment-type CODE]
  source create      --tenant T --source S
  source features    --tenant T --source S [--enable a,b] [--disable a,b]   (no flag: list; docs/planned-features.md)
  point set          --tenant T --point N [--name X] [--address X] [--lat L --lon L] [--phone X]
                     [--schedule '[{"weekday":1,"open":"10:00","close":"22:00"}]' | --schedule-file F | --no-schedule]
                     [--delivery-types courier,pickup]
  route set          --tenant T --source S --point N --organization-id ID --terminal-group-id ID
                     --order-type-id ID --operator-user-id ID --origin-name NAME
  route enable|disable --tenant T --source S --point N
  zones load         --tenant T --file zones.geojson
  credential issue-partner --tenant T --source S --points 101,102 [--key K --secret-env VAR]
  credential issue-pos     --tenant T --organization-id ID --terminal-group-id ID
  credential revoke  --key K
  credential list    --tenant T
  order show|manual-review|reject|release-holds --id ORDER_ID   (support)
  order legs --stuck                 loyalty legs whose confirm/release gave up (settle_failed)
  order legs --leg LEG_ID            retry a stuck leg's settlement (back to held; the sweeper settles it by its order's state)
  order refunds                      loyalty spends a person must decide on (the POS cancelled a verified order)
  order refund --leg LEG_ID --note TEXT   record the decision on a flagged leg (reverse the spend in loyalty by hand first)
  order accruals --pending|--failed  bonus accruals waiting (also while loyalty is off) or given up
  order accrual --retry --id ORDER_ID     queue a failed accrual again
  webhook ...        (see docs/webhooks.md)
  console user add NAME [--role admin|support] | passwd NAME | disable NAME | enable NAME | list
                     support console accounts (docs/console.md); password from CONSOLE_NEW_PASSWORD or stdin

Secrets are printed once, when issued, and stored encrypted under MASTER_KEY.`;

const OPTIONS = {
  id: { type: 'string' },
  name: { type: 'string' },
  tenant: { type: 'string' },
  source: { type: 'string' },
  point: { type: 'string' },
  address: { type: 'string' },
  lat: { type: 'string' },
  lon: { type: 'string' },
  phone: { type: 'string' },
  schedule: { type: 'string' },
  'schedule-file': { type: 'string' },
  'no-schedule': { type: 'boolean' },
  'delivery-types': { type: 'string' },
  'organization-id': { type: 'string' },
  'terminal-group-id': { type: 'string' },
  'order-type-id': { type: 'string' },
  'operator-user-id': { type: 'string' },
  'origin-name': { type: 'string' },
  file: { type: 'string' },
  points: { type: 'string' },
  key: { type: 'string' },
  'secret-env': { type: 'string' },
  'checkout-disabled': { type: 'boolean' },
  help: { type: 'boolean' },
  enable: { type: 'string' },
  disable: { type: 'string' },
  checkout: { type: 'string' },
  'zone-pricing': { type: 'string' },
  loyalty: { type: 'string' },
  'bonus-payment-type': { type: 'string' },
  'certificate-payment-type': { type: 'string' },
  'delivery-fee-product': { type: 'string' },
  'online-payment-type': { type: 'string' },
  'cash-payment-type': { type: 'string' },
  'card-payment-type': { type: 'string' },
} as const;

type Values = Record<string, string | boolean | undefined>;

function need(v: Values, name: string): string {
  const x = v[name];
  if (typeof x !== 'string' || x === '') throw new OperatorError(`--${name} is required`);
  return x;
}

function coord(v: Values): { lat: number; lon: number } | undefined {
  if (v.lat === undefined && v.lon === undefined) return undefined;
  const lat = Number(need(v, 'lat'));
  const lon = Number(need(v, 'lon'));
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    throw new OperatorError('--lat/--lon must be degrees');
  return { lat, lon };
}

function schedule(v: Values) {
  if (v['no-schedule']) return null;
  const text = typeof v['schedule-file'] === 'string' ? readFileSync(v['schedule-file'], 'utf8') : (v.schedule as string | undefined);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new OperatorError('schedule must be a JSON array of {weekday, open, close}');
  }
}

/** Runs one command; returns the process exit code. Output goes to `out` (secrets only when issued). */
export async function runOperatorCommand(argv: string[], ops: OperatorService, out: (line: string) => void): Promise<number> {
  const [group, action, ...rest] = argv;
  const { values: v } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: false, strict: true }) as { values: Values };
  switch (`${group} ${action}`) {
    case 'tenant create':
      await ops.createTenant(need(v, 'id'), need(v, 'name'), !v['checkout-disabled']);
      out(`tenant ${v.id} saved`);
      return 0;
    case 'tenant settings': {
      const onOff = (name: string): boolean | undefined => {
        const x = v[name];
        if (x === undefined) return undefined;
        if (x !== 'on' && x !== 'off') throw new OperatorError(`--${name} takes on or off`);
        return x === 'on';
      };
      const str = (name: string) => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
      await ops.updateSettings(need(v, 'tenant'), {
        checkoutEnabled: onOff('checkout'),
        zonePricing: onOff('zone-pricing'),
        loyaltyEnabled: onOff('loyalty'),
        bonusPaymentTypeCode: str('bonus-payment-type'),
        certificatePaymentTypeCode: str('certificate-payment-type'),
        deliveryFeeProductId: str('delivery-fee-product'),
        onlinePaymentTypeCode: str('online-payment-type'),
        cashPaymentTypeCode: str('cash-payment-type'),
        cardPaymentTypeCode: str('card-payment-type'),
      });
      out(`settings of tenant ${v.tenant} saved`);
      return 0;
    }
    case 'source create':
      await ops.createSource(need(v, 'tenant'), need(v, 'source'));
      out(`source ${v.source} saved`);
      return 0;
    case 'source features': {
      const on = await ops.sourceFeatures(need(v, 'tenant'), need(v, 'source'), v.enable as string | undefined, v.disable as string | undefined);
      out(JSON.stringify({ tenant: v.tenant, source: v.source, features: on }, null, 2));
      return 0;
    }
    case 'point set': {
      const types = typeof v['delivery-types'] === 'string' ? (v['delivery-types'].split(',') as ('courier' | 'pickup')[]) : undefined;
      if (types?.some((t) => t !== 'courier' && t !== 'pickup')) throw new OperatorError('--delivery-types takes courier and/or pickup');
      await ops.setPoint({
        tenantId: need(v, 'tenant'),
        pointId: need(v, 'point'),
        name: v.name as string | undefined,
        address: v.address as string | undefined,
        location: coord(v),
        phone: v.phone as string | undefined,
        schedule: schedule(v),
        deliveryTypes: types,
      });
      out(`point ${v.point} saved`);
      return 0;
    }
    case 'route set':
      await ops.setRoute({
        tenantId: need(v, 'tenant'),
        source: need(v, 'source'),
        pointId: need(v, 'point'),
        organizationId: need(v, 'organization-id'),
        terminalGroupId: need(v, 'terminal-group-id'),
        orderTypeId: need(v, 'order-type-id'),
        operatorUserId: need(v, 'operator-user-id'),
        originName: need(v, 'origin-name'),
      });
      out(`route of ${v.source} at point ${v.point} saved (active)`);
      return 0;
    case 'route enable':
    case 'route disable':
      await ops.setRouteActive(need(v, 'tenant'), need(v, 'source'), need(v, 'point'), action === 'enable');
      out(`route of ${v.source} at point ${v.point} ${action}d`);
      return 0;
    case 'zones load': {
      const n = await ops.loadZones(need(v, 'tenant'), JSON.parse(readFileSync(need(v, 'file'), 'utf8')));
      out(`${n} zones loaded`);
      return 0;
    }
    case 'credential issue-partner': {
      const secret = typeof v['secret-env'] === 'string' ? process.env[v['secret-env']] : undefined;
      const c = await ops.issuePartnerCredential({
        tenantId: need(v, 'tenant'),
        source: need(v, 'source'),
        pointIds: need(v, 'points').split(','),
        apiKey: v.key as string | undefined,
        apiSecret: secret,
      });
      out(JSON.stringify({ apiKey: c.apiKey, apiSecret: c.apiSecret, note: 'the secret is shown once' }, null, 2));
      return 0;
    }
    case 'credential issue-pos': {
      const c = await ops.issuePosCredential({
        tenantId: need(v, 'tenant'),
        organizationId: need(v, 'organization-id'),
        terminalGroupId: need(v, 'terminal-group-id'),
      });
      out(JSON.stringify({ apiKey: c.apiKey, apiSecret: c.apiSecret, note: 'the secret is shown once' }, null, 2));
      return 0;
    }
    case 'credential revoke':
      await ops.revokeCredential(need(v, 'key'));
      out('credential revoked');
      return 0;
    case 'credential list':
      out(JSON.stringify(await ops.listCredentials(need(v, 'tenant')), null, 2));
      return 0;
    default:
      out(USAGE);
      return group === undefined || v.help ? 0 : 2;
  }
}

/** Entry point: runs the command of `process.argv` and exits with its code. */
export async function runCli(): Promise<void> {
  const argv = process.argv.slice(2);
  const config = loadConfig();
  const db = await openDeliveryDb(config);
  const box = new SecretBox(config.masterKey);
  let code = 1;
  try {
    if (argv[0] === 'order') {
      code = await runOrderCommand(argv.slice(1), config, db, box, (l) => console.log(l));
    } else if (argv[0] === 'console') {
      code = await runConsoleCommand(argv.slice(1), db, (l) => console.log(l));
    } else if (argv[0] === 'webhook') {
      // The webhook commands live with the webhook feature.
      const mod = (await import(WEBHOOK_CLI)) as { runWebhookCommand(argv: string[], deps: unknown): Promise<number> };
      code = await mod.runWebhookCommand(argv.slice(1), { db, box, config, out: (l: string) => console.log(l) });
    } else {
      code = await runOperatorCommand(argv, new OperatorService({ db, box }), (l) => console.log(l));
    }
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    code = 1;
  } finally {
    await db.close();
  }
  process.exit(code);
}

const WEBHOOK_CLI = '../webhooks/webhook-cli.js';

/** `order …` support commands; uses the loyalty service of the configuration for releases. */
export async function runOrderCommand(argv: string[], config: DeliveryConfig, db: Db, box: SecretBox, out: (l: string) => void): Promise<number> {
  const [action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      id: { type: 'string' },
      stuck: { type: 'boolean' },
      leg: { type: 'string' },
      note: { type: 'string' },
      pending: { type: 'boolean' },
      failed: { type: 'boolean' },
      retry: { type: 'boolean' },
    },
    strict: true,
  });
  const events = createOutboxOrderEvents(randomIds);
  const log = createLogger({ level: 'info' });
  const metrics = createLegMetrics(new Registry(), async () => ({}));
  const holds = new LoyaltyHolds({
    db,
    loyalty: loyaltyFromConfig(config),
    clock: systemClock,
    ids: randomIds,
    box,
    settlements: orderSettlementEvents(events),
    log,
    metrics,
    steps: noStepObserver,
  });
  const support = new OrderSupportService({ db, clock: systemClock, events, holds });
  if (action === 'legs') {
    if (values.stuck) {
      const legs = await support.stuckLegs();
      out(legs.length ? JSON.stringify(legs, null, 2) : 'no stuck legs');
      return 0;
    }
    if (values.leg) {
      out(JSON.stringify(await support.retrySettlement(values.leg), null, 2));
      return 0;
    }
    throw new OperatorError('order legs needs --stuck or --leg LEG_ID');
  }
  if (action === 'refunds') {
    const legs = await support.refunds();
    out(legs.length ? JSON.stringify(legs, null, 2) : 'no refunds to decide');
    return 0;
  }
  if (action === 'refund') {
    if (!values.leg || !values.note) throw new OperatorError('order refund needs --leg LEG_ID and --note TEXT (what was decided)');
    out(JSON.stringify(await support.refundDone(values.leg, values.note), null, 2));
    return 0;
  }
  if (action === 'accruals') {
    if (values.pending === values.failed) throw new OperatorError('order accruals needs --pending or --failed');
    const list = await support.accruals(values.pending ? 'pending' : 'failed');
    out(list.length ? JSON.stringify(list, null, 2) : `no ${values.pending ? 'pending' : 'failed'} accruals`);
    return 0;
  }
  if (action === 'accrual') {
    if (!values.retry || !values.id) throw new OperatorError('order accrual needs --retry --id ORDER_ID');
    out(JSON.stringify(await support.retryAccrual(values.id), null, 2));
    return 0;
  }
  const id = values.id;
  if (!id) throw new OperatorError('--id is required');
  switch (action) {
    case 'show':
      out(JSON.stringify(await support.show(id), null, 2));
      return 0;
    case 'manual-review':
      out(JSON.stringify(await support.manualReview(id), null, 2));
      return 0;
    case 'reject':
      out(JSON.stringify(await support.reject(id), null, 2));
      return 0;
    case 'release-holds':
      out(`${await support.releaseHolds(id)} hold(s) released`);
      return 0;
    default:
      out(USAGE);
      return 2;
  }
}

if (process.argv[1] && import.meta.filename === (await import('node:fs')).realpathSync(process.argv[1])) await runCli();

import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { SecretBox } from '../src/auth/secret-box.js';
import type { DeliveryConfig } from '../src/config.js';
import { runOperatorCommand, runOrderCommand } from '../src/operator/cli.js';
import { OperatorService } from '../src/operator/operator.service.js';
import { TenantsRepo } from '../src/tenants/tenants.repo.js';
import { MIGRATIONS } from './harness.js';

let db: Db;
let ops: OperatorService;
let box: SecretBox;
const lines: string[] = [];
const run = (cmd: string) =>
  runOperatorCommand(
    cmd.match(/'[^']*'|\S+/g)!.map((a) => a.replace(/^'|'$/g, '')),
    ops,
    (l) => lines.push(l),
  );

beforeAll(async () => {
  db = await openTestDb(MIGRATIONS);
  box = new SecretBox(randomBytes(32));
  ops = new OperatorService({ db, box });
});
afterAll(async () => db.close());

describe('operator CLI', () => {
  it('creates a tenant, source, point with schedule, route, zones, credentials; revokes', async () => {
    expect(await run('tenant create --id demo --name Demo')).toBe(0);
    expect(await run('source create --tenant demo --source website')).toBe(0);
    expect(
      await run(
        `point set --tenant demo --point 101 --name Центр --address 'Тверская, 1' --lat 55.76 --lon 37.61 --phone +74950000000 --schedule '[{"weekday":1,"open":"18:00","close":"03:00"}]' --delivery-types courier,pickup`,
      ),
    ).toBe(0);
    const [p] = await db.query<{ name: string; schedule: unknown; delivery_types: unknown }>('SELECT name, schedule, delivery_types FROM points');
    expect(p).toEqual({ name: 'Центр', schedule: [{ weekday: 1, open: '18:00', close: '03:00' }], delivery_types: ['courier', 'pickup'] });
    expect(
      await run(
        'route set --tenant demo --source website --point 101 --organization-id org --terminal-group-id tg --order-type-id ot --operator-user-id op --origin-name website',
      ),
    ).toBe(0);
    expect(await run('route disable --tenant demo --source website --point 101')).toBe(0);
    expect((await db.query<{ active: boolean }>('SELECT active FROM routes'))[0].active).toBe(false);
    expect(await run('route enable --tenant demo --source website --point 101')).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'zones-')), 'z.geojson');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [37.5, 55.7],
                  [37.7, 55.7],
                  [37.7, 55.8],
                  [37.5, 55.7],
                ],
              ],
            },
            properties: { id: 'z', pointId: '101' },
          },
        ],
      }),
    );
    expect(await run(`zones load --tenant demo --file ${file}`)).toBe(0);
    expect((await db.query<{ polygon: number[][] }>('SELECT polygon FROM delivery_zones'))[0].polygon[0]).toEqual([55.7, 37.5]);
    lines.length = 0;
    expect(await run('credential issue-partner --tenant demo --source website --points 101')).toBe(0);
    const issued = JSON.parse(lines.join('\n'));
    expect(issued.apiSecret.length).toBeGreaterThanOrEqual(32);
    const [row] = await db.query<{ secret_enc: string }>('SELECT secret_enc FROM credentials WHERE api_key = $1', [issued.apiKey]);
    expect(row.secret_enc).not.toContain(issued.apiSecret);
    expect(box.open(row.secret_enc)).toBe(issued.apiSecret);
    expect(await run('credential issue-pos --tenant demo --organization-id org --terminal-group-id tg')).toBe(0);
    lines.length = 0;
    expect(await run('credential list --tenant demo')).toBe(0);
    expect(lines.join('\n')).not.toContain(issued.apiSecret);
    expect(await run(`credential revoke --key ${issued.apiKey}`)).toBe(0);
    expect(await ops.findPartnerSecret(issued.apiKey)).toBeNull();
  });

  it('tenant settings', async () => {
    expect(await run('tenant settings --tenant demo --zone-pricing off --bonus-payment-type BONUS --delivery-fee-product fee-1')).toBe(0);
    expect(await new TenantsRepo(db).settings('demo')).toMatchObject({
      zonePricing: false,
      bonusPaymentTypeCode: 'BONUS',
      deliveryFeeProductId: 'fee-1',
      checkoutEnabled: true,
    });
  });

  it('refuses zone pricing without a delivery-fee product (the fee would never reach the POS)', async () => {
    expect(await run('tenant create --id nofee --name NoFee')).toBe(0);
    await expect(run('tenant settings --tenant nofee --zone-pricing on')).rejects.toThrow(/delivery-fee product/);
    expect(await new TenantsRepo(db).settings('nofee')).toMatchObject({ zonePricing: false, deliveryFeeProductId: null });
    expect(await run('tenant settings --tenant nofee --zone-pricing on --delivery-fee-product fee-2')).toBe(0);
    expect(await new TenantsRepo(db).settings('nofee')).toMatchObject({ zonePricing: true, deliveryFeeProductId: 'fee-2' });
  });

  it('order legs --stuck lists settle_failed legs; --leg puts one back to held', async () => {
    const order = (args: string) => runOrderCommand(args.split(' '), { loyaltyTimeoutMs: 1000 } as DeliveryConfig, db, box, (l) => lines.push(l));
    lines.length = 0;
    expect(await order('legs --stuck')).toBe(0);
    expect(lines.at(-1)).toBe('no stuck legs');
    await db.query(
      `INSERT INTO loyalty_legs (id, tenant_id, source, external_order_id, payload_sha256, kind, organization_id, amount_minor, state, hold_id, last_error, settle_attempts, created_at, updated_at)
       VALUES ('00000000-0000-4000-8000-00000000abcd', 'demo', 'website', 'W-1', 'h', 'bonus', 'org', 5000, 'settle_failed', 'hold-1', 'confirm failed: unavailable/timeout', 8, now(), now())`,
    );
    expect(await order('legs --stuck')).toBe(0);
    expect(JSON.parse(lines.at(-1)!)).toEqual([
      expect.objectContaining({
        legId: '00000000-0000-4000-8000-00000000abcd',
        kind: 'bonus',
        amountMinor: 5000,
        attempts: 8,
        externalOrderId: 'W-1',
      }),
    ]);
    expect(await order('legs --leg 00000000-0000-4000-8000-00000000abcd')).toBe(0);
    expect((await db.query<{ state: string }>(`SELECT state FROM loyalty_legs WHERE id = '00000000-0000-4000-8000-00000000abcd'`))[0].state).toBe(
      'held',
    );
    await expect(order('legs --leg 00000000-0000-4000-8000-00000000abcd')).rejects.toThrow(/not settle_failed/);
  });

  it('order accruals --pending|--failed list accruals, order accrual --retry queues a failed one again', async () => {
    const order = (args: string[]) => runOrderCommand(args, { loyaltyTimeoutMs: 1000 } as DeliveryConfig, db, box, (l) => lines.push(l));
    expect(await run('tenant create --id acc --name Accruals')).toBe(0);
    const insert = (id: string, state: string, error: string | null) =>
      db.query(
        `INSERT INTO orders (id, tenant_id, source, external_order_id, point_id, organization_id, terminal_group_id, kind, state, payload_sha256,
           request, pos_payload, route, accrual_state, accrual_attempts, accrual_error, created_at, updated_at)
         VALUES ($1::uuid, 'acc', 'website', $1::text, '1', 'org', 'tg', 'checkout', 'created_verified', 'h', '{}', '{}', '{}', $2, 8, $3, now(), now())`,
        [id, state, error],
      );
    await insert('00000000-0000-4000-8000-0000000acc01', 'pending', null);
    await insert('00000000-0000-4000-8000-0000000acc02', 'failed', 'unavailable: timeout');
    expect(await order(['accruals', '--pending'])).toBe(0);
    expect(JSON.parse(lines.at(-1)!).map((a: { orderId: string }) => a.orderId)).toContain('00000000-0000-4000-8000-0000000acc01');
    expect(await order(['accruals', '--failed'])).toBe(0);
    expect(JSON.parse(lines.at(-1)!)).toEqual([
      expect.objectContaining({ orderId: '00000000-0000-4000-8000-0000000acc02', attempts: 8, error: 'unavailable: timeout' }),
    ]);
    expect(await order(['accrual', '--retry', '--id', '00000000-0000-4000-8000-0000000acc02'])).toBe(0);
    const row = await db.query<{ accrual_state: string; accrual_attempts: number }>(
      `SELECT accrual_state, accrual_attempts FROM orders WHERE id = '00000000-0000-4000-8000-0000000acc02'`,
    );
    expect(row[0]).toEqual({ accrual_state: 'pending', accrual_attempts: 0 });
    await expect(order(['accrual', '--retry', '--id', '00000000-0000-4000-8000-0000000acc02'])).rejects.toThrow(/no failed accrual/);
    await expect(order(['accruals'])).rejects.toThrow(/--pending or --failed/);
  });

  it('order refunds lists spends a person must decide; order refund --leg --note records the decision', async () => {
    const order = (args: string[]) => runOrderCommand(args, { loyaltyTimeoutMs: 1000 } as DeliveryConfig, db, box, (l) => lines.push(l));
    expect(await order(['refunds'])).toBe(0);
    expect(lines.at(-1)).toBe('no refunds to decide');
    await db.query(
      `INSERT INTO loyalty_legs (id, tenant_id, source, external_order_id, payload_sha256, kind, organization_id, amount_minor, state, hold_id,
         refund_state, refund_note, refund_flagged_at, created_at, updated_at)
       VALUES ('00000000-0000-4000-8000-00000000aef1', 'demo', 'website', 'W-R', 'h', 'coupon', 'org', 20000, 'confirmed', 'hold-r',
         'required', 'the POS cancelled the order after it was verified', now(), now(), now())`,
    );
    expect(await order(['refunds'])).toBe(0);
    expect(JSON.parse(lines.at(-1)!)).toEqual([
      expect.objectContaining({ legId: '00000000-0000-4000-8000-00000000aef1', kind: 'coupon', state: 'confirmed', amountMinor: 20000 }),
    ]);
    await expect(order(['refund', '--leg', '00000000-0000-4000-8000-00000000aef1'])).rejects.toThrow(/--note/);
    expect(await order(['refund', '--leg', '00000000-0000-4000-8000-00000000aef1', '--note', 'coupon re-issued by hand'])).toBe(0);
    expect(await order(['refunds'])).toBe(0);
    expect(lines.at(-1)).toBe('no refunds to decide');
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    await expect(run('point set --tenant demo --point 102 --schedule \'[{"weekday":7,"open":"10:00","close":"22:00"}]\'')).rejects.toThrow(
      /weekday must be 0..6/,
    );
    await expect(run('point set --tenant nope --point 102')).rejects.toThrow(/tenant nope does not exist/);
    await expect(run('credential issue-partner --tenant demo --source website --points 101 --key short')).rejects.toThrow(/at least 8/);
    await expect(
      run(
        'route set --tenant demo --source website --point 999 --organization-id o --terminal-group-id t --order-type-id x --operator-user-id y --origin-name z',
      ),
    ).rejects.toThrow(/does not exist/);
    await expect(run('tenant settings --tenant demo --checkout maybe')).rejects.toThrow(/on or off/);
    expect(await db.query("SELECT 1 FROM points WHERE point_id = '102'")).toHaveLength(0);
  });
});

describe('API secret vs webhook secret (spec: Events, configuration)', () => {
  it('refuses an API secret equal to the webhook secret of the source, at issuance and at rotation', async () => {
    const { setWebhookConfig } = await import('../src/webhooks/webhook-config.js');
    const hook = 'w'.repeat(40);
    await setWebhookConfig(
      db,
      box,
      { tenantId: 'demo', source: 'website', url: 'https://partner.example/hooks', secret: hook },
      { allowInsecureLoopback: false },
    );
    await expect(
      ops.issuePartnerCredential({ tenantId: 'demo', source: 'website', pointIds: ['101'], apiKey: 'key-00000001', apiSecret: hook }),
    ).rejects.toThrow(/differ from the webhook secret/);
    const c = await ops.issuePartnerCredential({ tenantId: 'demo', source: 'website', pointIds: ['101'] });
    await expect(ops.replaceSecret(c.apiKey, hook)).rejects.toThrow(/differ from the webhook secret/);
    expect(await ops.findPartnerSecret(c.apiKey)).toBe(c.apiSecret);
  });
});

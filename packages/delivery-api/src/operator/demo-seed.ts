import type { Db } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { TenantsRepo } from '../tenants/tenants.repo.js';
import { OperatorService, type IssuedCredential } from './operator.service.js';
import { FEATURES } from '../features/features.js';

/** The demo's second source: every per-source switch on (docs/planned-features.md); the chain's own source has none. */
export const DEMO_PLANNED_SOURCE = 'planned';

/** What the demo seed needs from a chain description (packages/pos-simulator/chains/*.json). */
export interface ChainSeed {
  tenant: { id: string; name: string; deliveryFeeProductId?: string };
  source: string;
  points: {
    pointId: string;
    name: string;
    address: string;
    location: { lat: number; lon: number };
    phone: string;
    schedule: { weekday: number; open: string; close: string }[] | null;
    deliveryTypes: ('courier' | 'pickup')[];
    route: { organizationId: string; terminalGroupId: string; orderTypeId: string; operatorUserId: string; originName: string; active: boolean };
  }[];
}

/** Credentials the demo keeps in `data/` between runs (secrets are shown once, so they are remembered there). */
export interface DemoCredentials {
  partner: { apiKey: string; apiSecret: string };
  pos: Record<string, { apiKey: string; apiSecret: string }>;
  /** A key of the source with every switch on (guest API, catalog events, rate limits). */
  planned?: { source: string; apiKey: string; apiSecret: string };
}

/**
 * Seeds (idempotently) a tenant, its source, points, routes and zones from a chain description, and makes
 * sure the partner and POS credentials in `known` exist; missing ones are issued (partner key/secret may be
 * forced, e.g. from DEMO_API_KEY/DEMO_API_SECRET). Returns the credentials to remember.
 */
export async function seedDemoChain(
  db: Db,
  box: SecretBox,
  chain: ChainSeed,
  zones: unknown,
  known: Partial<DemoCredentials>,
  force: { apiKey?: string; apiSecret?: string } = {},
): Promise<DemoCredentials> {
  const ops = new OperatorService({ db, box });
  await ops.createTenant(chain.tenant.id, chain.tenant.name);
  await ops.createSource(chain.tenant.id, chain.source);
  for (const p of chain.points) {
    await ops.setPoint({
      tenantId: chain.tenant.id,
      pointId: p.pointId,
      name: p.name,
      address: p.address,
      location: p.location,
      phone: p.phone,
      schedule: p.schedule,
      deliveryTypes: p.deliveryTypes,
    });
    await ops.setRoute({ tenantId: chain.tenant.id, source: chain.source, pointId: p.pointId, ...p.route });
  }
  await ops.loadZones(chain.tenant.id, zones);
  // zone pricing needs the POS service line for the fee (rule 9): the demo chain names its fee product
  const fee = chain.tenant.deliveryFeeProductId;
  await new TenantsRepo(db).updateSettings(chain.tenant.id, {
    bonusPaymentTypeCode: 'BONUS',
    certificatePaymentTypeCode: 'GIFTCARD',
    ...(fee ? { deliveryFeeProductId: fee, zonePricing: true } : {}),
  });

  const pointIds = chain.points.map((p) => p.pointId);
  const wantedPartner = force.apiKey && force.apiSecret ? { apiKey: force.apiKey, apiSecret: force.apiSecret } : known.partner;
  const partner = await ensure(ops, wantedPartner, () =>
    ops.issuePartnerCredential({
      tenantId: chain.tenant.id,
      source: chain.source,
      pointIds,
      apiKey: wantedPartner?.apiKey,
      apiSecret: wantedPartner?.apiSecret,
    }),
  );
  // the second source: the same points and routes, every switch on
  await ops.createSource(chain.tenant.id, DEMO_PLANNED_SOURCE);
  for (const p of chain.points)
    await ops.setRoute({ tenantId: chain.tenant.id, source: DEMO_PLANNED_SOURCE, pointId: p.pointId, ...p.route, originName: DEMO_PLANNED_SOURCE });
  await ops.sourceFeatures(chain.tenant.id, DEMO_PLANNED_SOURCE, FEATURES.join(','));
  const plannedKey = await ensure(ops, known.planned, () =>
    ops.issuePartnerCredential({ tenantId: chain.tenant.id, source: DEMO_PLANNED_SOURCE, pointIds }),
  );
  const pos: DemoCredentials['pos'] = {};
  for (const p of chain.points) {
    pos[p.pointId] = await ensure(ops, known.pos?.[p.pointId], () =>
      ops.issuePosCredential({ tenantId: chain.tenant.id, organizationId: p.route.organizationId, terminalGroupId: p.route.terminalGroupId }),
    );
  }
  return { partner, pos, planned: { source: DEMO_PLANNED_SOURCE, ...plannedKey } };
}

/** Reuses a remembered credential when it is still active with the same secret, else issues a new one. */
async function ensure(
  ops: OperatorService,
  known: { apiKey: string; apiSecret: string } | undefined,
  issue: () => Promise<IssuedCredential>,
): Promise<{ apiKey: string; apiSecret: string }> {
  if (known) {
    const secret = await ops.findPartnerSecret(known.apiKey);
    if (secret === known.apiSecret) return known;
    if (secret !== null) {
      await ops.replaceSecret(known.apiKey, known.apiSecret);
      return known;
    }
  }
  const c = await issue();
  return { apiKey: c.apiKey, apiSecret: c.apiSecret };
}

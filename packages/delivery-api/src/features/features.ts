/**
 * The switches an operator turns on per source (`delivery-operator source features`). Each one enables a part that
 * the spec marks as planned; with it off the source keeps the spec's current contract.
 * - `guest-api`: GET /v1/guests/{phone}/loyalty|orders|addresses and GET /v1/status (spec: In development).
 * - `catalog-events`: menu.updated, stoplist.updated, point.status_changed webhooks (spec: Events, "not sent").
 * - `rate-limits`: 600 requests/min per key, 100/min per IP, X-RateLimit-* headers (spec: Limits, "planned").
 */
export const FEATURES = ['guest-api', 'catalog-events', 'rate-limits'] as const;

/** One per-source switch. */
export type Feature = (typeof FEATURES)[number];

/** True when `name` is a known switch. */
export function isFeature(name: string): name is Feature {
  return (FEATURES as readonly string[]).includes(name);
}

/**
 * Parses a comma-separated list of switch names (`guest-api,rate-limits`).
 * @throws Error naming the unknown switch and the known ones.
 */
export function parseFeatureList(list: string): Feature[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const n of names) if (!isFeature(n)) throw new Error(`unknown feature "${n}" (known: ${FEATURES.join(', ')})`);
  return [...new Set(names)] as Feature[];
}

/**
 * What a switch check reads: the switches of a request's source. The auth layer's `Credential` fits it; taking the
 * shape instead of that type keeps features/ below auth/ (auth/ asks this module, never the other way).
 */
export interface FeatureHolder {
  readonly features: readonly string[];
}

/** Whether the source of an authenticated credential has the switch on (POS credentials have none). */
export function hasFeature(cred: FeatureHolder | undefined, feature: Feature): boolean {
  return cred?.features.includes(feature) ?? false;
}

import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';

/** Money in the config file is integer kopecks (the wire speaks rubles, like iiko; see http/wire.ts). */
const Minor = Type.Integer({ minimum: 0 });
const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC or with offset' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/**
 * An automatic program (iiko "marketing campaign"): `percent` or `fixed` off the cart or off the lines whose
 * product is in `productIds` (a category as the loyalty service knows it), or a `gift` product.
 * `minSubtotalMinor`: applies when the cart subtotal (kopecks) is at least this. `posDiscountId` null = not mapped.
 */
export const ProgramSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    type: Type.Union([Type.Literal('percent'), Type.Literal('fixed'), Type.Literal('gift')]),
    percent: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
    amountMinor: Type.Optional(Minor),
    gift: Type.Optional(Type.Object({ productId: Type.String(), quantityMilli: Type.Integer({ minimum: 1 }) })),
    productIds: Type.Optional(Type.Array(Type.String())),
    minSubtotalMinor: Type.Optional(Minor),
    posDiscountId: Nullable(Type.String()),
    /** Organizations the program runs in; absent = all connected ones. */
    organizations: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** A promo code: `percent` or `amountMinor` off the order after program discounts. */
export const CouponSchema = Type.Object(
  {
    code: Type.String({ minLength: 1 }),
    /** Program the coupon discount is attributed to; default `coupon-<CODE>`. */
    programId: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    percent: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
    amountMinor: Type.Optional(Minor),
    minSubtotalMinor: Type.Optional(Minor),
    validFrom: Type.Optional(Timestamp),
    validTo: Type.Optional(Timestamp),
    /** One order only: held by one hold at a time, spent on confirm. */
    singleUse: Type.Optional(Type.Boolean()),
    posDiscountId: Nullable(Type.String()),
    organizations: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** Faults, switchable at run time (`POST /admin/faults`) and in the file. */
export const FaultsSchema = Type.Object(
  {
    /** Delay every loyalty answer by this many real milliseconds. */
    slowMs: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Never answer (the client's timeout fires). */
    timeout: Type.Optional(Type.Boolean()),
    /** Apply the call (the write takes effect), then never answer: the client sees a timeout of a call that acted. */
    timeoutAfterApply: Type.Optional(Type.Boolean()),
    /** Answer every loyalty call with this 5xx status; 0 = off. */
    status5xx: Type.Optional(Type.Integer({ minimum: 0, maximum: 599 })),
    /** Refuse every hold with 400 REJECTED. */
    reject: Type.Optional(Type.Boolean()),
    /** Writes (hold, cancel_hold, chargeoff, accrual) per API login per 60 s; 0 = unlimited. Default 4. */
    writeLimitPerMinute: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Limit slowMs/timeout/timeoutAfterApply/status5xx/reject to these operations; absent = all. */
    only: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** Schema of the whole config file; money in kopecks, timestamps RFC 3339. */
export const SimulatorConfigSchema = Type.Object(
  {
    /** API logins accepted by `/api/1/access_token` (the write limit is counted per login). */
    apiLogins: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    /** Organizations with loyalty connected; others get 403 ORGANIZATION_NOT_CONNECTED. */
    organizations: Type.Optional(Type.Array(Type.String())),
    /** Every organization id is connected (the demo, where ids come from the POS routes). */
    allOrganizations: Type.Optional(Type.Boolean()),
    programs: Type.Array(ProgramSchema),
    coupons: Type.Array(CouponSchema),
    guests: Type.Array(
      Type.Object(
        {
          phone: Type.String({ pattern: '^\\+7\\d{10}$' }),
          name: Type.Optional(Type.String()),
          bonusBalanceMinor: Minor,
          /** Percent of the money paid credited as bonus on accrual. */
          accrualPercent: Type.Number({ minimum: 0, maximum: 100 }),
          /** Guest category (iiko: a level such as "Gold"), shown by customer/info. */
          category: Type.Optional(Type.String({ minLength: 1 })),
          /** Coupon codes given to this guest (from `coupons`); customer/info lists the ones usable now. */
          coupons: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
        },
        { additionalProperties: false },
      ),
    ),
    certificates: Type.Array(
      Type.Object({ serial: Type.String({ minLength: 1 }), balanceMinor: Minor, validTo: Type.Optional(Timestamp) }, { additionalProperties: false }),
    ),
    /** Lifetime of an access token, seconds (iiko: 1 hour). */
    tokenTtlSeconds: Type.Optional(Type.Integer({ minimum: 1 })),
    faults: Type.Optional(FaultsSchema),
  },
  { additionalProperties: false },
);

/** The simulator's configuration file (JSON), validated by {@link parseConfig}. */
export type SimulatorConfig = Static<typeof SimulatorConfigSchema>;
export type ProgramConfig = Static<typeof ProgramSchema>;
export type CouponConfig = Static<typeof CouponSchema>;
export type Faults = Static<typeof FaultsSchema>;

/** Validates a config object; throws an Error listing every bad path. */
export function parseConfig(raw: unknown, origin = 'config'): SimulatorConfig {
  if (!Value.Check(SimulatorConfigSchema, raw)) {
    const errs = [...Value.Errors(SimulatorConfigSchema, raw)].slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`${origin}: invalid loyalty simulator config: ${errs.join('; ')}`);
  }
  if (!raw.allOrganizations && !raw.organizations) throw new Error(`${origin}: set organizations or allOrganizations`);
  for (const p of raw.programs) {
    const ok = p.type === 'percent' ? p.percent !== undefined : p.type === 'fixed' ? p.amountMinor !== undefined : p.gift !== undefined;
    if (!ok) throw new Error(`${origin}: program ${p.id} of type ${p.type} lacks its value`);
  }
  for (const c of raw.coupons) {
    if ((c.percent === undefined) === (c.amountMinor === undefined))
      throw new Error(`${origin}: coupon ${c.code} needs exactly one of percent, amountMinor`);
  }
  return raw;
}

/** Reads and validates a JSON config file. */
export function loadConfigFile(path: string): SimulatorConfig {
  return parseConfig(JSON.parse(readFileSync(path, 'utf8')), path);
}

import { type Static, Type } from 'typebox';
import { strict } from '@app/shared/typebox';
import { Location } from './common.schemas.js';
import { MAX_AMOUNT_MINOR, Money, NonNegativeMoney } from './money.js';

/** E.164 Russian phone: +7 and 10 digits. Spec: Checkout request guest.phone, Order request guest.phone. */
export const PHONE_PATTERN = '^\\+7[0-9]{10}$';
/** Quantity string: > 0, up to 3 decimals (checked exactly by parseQuantityMilli). */
export const QUANTITY_PATTERN = '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,3})?$';
/** Maximum lines per cart/order (the spec does not show one; docs/decisions.md). */
export const MAX_LINES = 200;

export const DeliveryType = Type.Union([Type.Literal('courier'), Type.Literal('pickup')]);
export const Certificate = Type.Object(
  { serial: Type.String({ minLength: 1, maxLength: 100 }), amountMinor: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT_MINOR }) },
  strict,
);

export const CheckoutBody = Type.Object(
  {
    pointId: Type.String({ minLength: 1, maxLength: 64 }),
    deliveryType: Type.Optional(DeliveryType),
    location: Type.Optional(Location),
    items: Type.Array(
      Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), quantity: Type.String({ pattern: QUANTITY_PATTERN }) }, strict),
      { minItems: 1, maxItems: MAX_LINES },
    ),
    guest: Type.Optional(Type.Object({ phone: Type.String({ pattern: PHONE_PATTERN }) }, strict)),
    coupon: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    bonusToSpend: Type.Optional(NonNegativeMoney),
    certificate: Type.Optional(Certificate),
    deliverAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  strict,
);

const Line = Type.Object({
  id: Type.String(),
  name: Type.String(),
  quantity: Type.String(),
  unitPrice: Money,
  lineTotal: Money,
  available: Type.Boolean(),
  warning: Type.Optional(Type.Union([Type.Literal('stop_list'), Type.Literal('unknown_item'), Type.Literal('hidden_item')])),
});

/** Checkout result without calculationId/expiresAt (also the `calculation` of 409 price_changed). */
export const CalculationBodySchema = Type.Object({
  pointId: Type.String(),
  deliveryType: DeliveryType,
  items: Type.Array(Line),
  subtotal: Money,
  programDiscount: Money,
  coupon: Type.Object({ status: Type.Union([Type.Literal('not_requested'), Type.Literal('applied'), Type.Literal('invalid')]), discount: Money }),
  bonus: Type.Object({ requested: Type.Boolean(), maxSpend: Money, spend: Money }),
  certificate: Type.Optional(Type.Object({ status: Type.String(), requestedMinor: Type.Integer(), spendMinor: Type.Integer() })),
  deliveryFee: Money,
  minOrder: Type.Object({ met: Type.Boolean(), missing: Money }),
  total: Money,
  warnings: Type.Array(Type.String()),
  loyaltyUnavailable: Type.Boolean(),
});

export const CheckoutReply = Type.Object({
  ...CalculationBodySchema.properties,
  calculationId: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

/** Body of POST /v1/checkout/calculate. */
export type CheckoutRequest = Static<typeof CheckoutBody>;
export type CheckoutResult = Static<typeof CheckoutReply>;

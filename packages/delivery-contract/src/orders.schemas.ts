import { type Static, Type } from 'typebox';
import { strict } from '@app/shared/typebox';
import { CancelReasonSchema } from './order-view.js';
import { Location } from './common.schemas.js';
import { MAX_AMOUNT_MINOR, Money, NonNegativeMoney } from './money.js';
import { Certificate, DeliveryType, MAX_LINES, PHONE_PATTERN, QUANTITY_PATTERN } from './checkout.schemas.js';

const Str = (max: number) => Type.String({ maxLength: max });
const Anything = Type.Unknown({ description: 'server-owned: accepted and overwritten' });

/** externalOrderId: Latin letters, digits and `. _ : / -`, at most 50 characters. Spec: Order request. */
export const EXTERNAL_ORDER_ID_PATTERN = '^[A-Za-z0-9._:/-]{1,50}$';

/**
 * Spec: Order request. Unknown fields are refused except the six server-owned ones (General rule 2), which are
 * accepted, ignored for idempotency and overwritten by the server.
 */
export const OrderBody = Type.Object(
  {
    schemaVersion: Type.Literal(1),
    source: Type.String({ minLength: 1, maxLength: 100 }),
    externalOrderId: Type.String({ pattern: EXTERNAL_ORDER_ID_PATTERN }),
    externalPointId: Type.String({ minLength: 1, maxLength: 64 }),
    createdAt: Type.Optional(Type.String({ format: 'date-time' })),
    deliverAt: Type.Optional(Type.String({ format: 'date-time' })),
    guest: Type.Object(
      {
        externalClientId: Type.Optional(Str(100)),
        name: Type.String({ minLength: 1, maxLength: 200 }),
        phone: Type.String({ pattern: PHONE_PATTERN }),
      },
      strict,
    ),
    address: Type.Object(
      {
        city: Type.Optional(Str(200)),
        street: Type.String({ minLength: 1, maxLength: 300 }),
        house: Type.String({ minLength: 1, maxLength: 50 }),
        flat: Type.Optional(Str(50)),
        entrance: Type.Optional(Str(50)),
        floor: Type.Optional(Str(50)),
        doorphone: Type.Optional(Str(50)),
        comment: Type.Optional(Str(500)),
      },
      strict,
    ),
    items: Type.Array(
      Type.Object(
        { externalProductId: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.String({ pattern: QUANTITY_PATTERN }), price: Money },
        strict,
      ),
      { minItems: 1, maxItems: MAX_LINES },
    ),
    total: Money,
    comment: Type.Optional(Type.String({ maxLength: 500 })),
    deliveryType: DeliveryType,
    location: Type.Optional(Location),
    persons: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    callBack: Type.Optional(Type.Boolean()),
    coupon: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    bonusToSpend: Type.Optional(NonNegativeMoney),
    certificate: Type.Optional(Certificate),
    calculationId: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
    payment: Type.Optional(
      Type.Object(
        {
          method: Type.Union([Type.Literal('online'), Type.Literal('cash'), Type.Literal('card_on_delivery')]),
          paid: Type.Boolean(),
          externalPaymentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          amountMinor: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT_MINOR }),
          change: Type.Optional(Type.Object({ from: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT_MINOR }) }, strict)),
          code: Type.Optional(Anything),
        },
        strict,
      ),
    ),
    appliedDiscounts: Type.Optional(Anything),
    mappedDiscounts: Type.Optional(Anything),
    giftLines: Type.Optional(Anything),
    deliveryFeeMinor: Type.Optional(Anything),
    deliveryFeeProductId: Type.Optional(Anything),
  },
  strict,
);

export { OrderViewSchema } from './order-view.js';

export const CancelBody = Type.Object(
  {
    reason: CancelReasonSchema,
    comment: Type.Optional(Type.String({ maxLength: 500 })),
  },
  strict,
);

export const OrderIdParams = Type.Object({ id: Type.String() });
export const LookupQuery = Type.Object({ externalOrderId: Type.String({ minLength: 1, maxLength: 50 }) });
export const SourceQuery = Type.Object({ source: Type.String({ minLength: 1, maxLength: 100 }) });

/** Body of POST /v1/orders. */
export type OrderRequest = Static<typeof OrderBody>;
/** Body of POST /v1/orders/{id}/cancel. */
export type CancelRequest = Static<typeof CancelBody>;

import { Type, type Static } from 'typebox';

/** Request bodies of the iiko-shaped routes (money in rubles, amounts decimal). Extra fields are ignored, as iiko does. */

const Str = Type.String({ minLength: 1, maxLength: 200 });
const Rub = Type.Number({ minimum: 0 });
const Key = Type.String({ minLength: 1, maxLength: 128 });

export const CalculateBody = Type.Object({
  organizationId: Str,
  order: Type.Object({
    phone: Type.Optional(Type.String()),
    items: Type.Array(
      Type.Object({ productId: Str, type: Type.Optional(Type.String()), amount: Type.Number({ exclusiveMinimum: 0 }), price: Rub, sum: Rub }),
    ),
  }),
  coupon: Type.Optional(Type.String()),
  /** Extensions of this simulator: certificate check and the guest's requested bonus spend. */
  certificate: Type.Optional(Type.Object({ number: Str, sum: Rub })),
  bonusToSpend: Type.Optional(Rub),
  deliveryFee: Type.Optional(Rub),
});
export type CalculateBody = Static<typeof CalculateBody>;

export const CustomerInfoBody = Type.Object({
  organizationId: Str,
  type: Type.Union([Type.Literal('phone'), Type.Literal('cardNumber'), Type.Literal('id')]),
  phone: Type.Optional(Type.String()),
  cardNumber: Type.Optional(Type.String()),
  id: Type.Optional(Type.String()),
});
export type CustomerInfoBody = Static<typeof CustomerInfoBody>;

export const WalletHoldBody = Type.Object({
  organizationId: Str,
  customerId: Str,
  walletId: Str,
  sum: Type.Number({ exclusiveMinimum: 0 }),
  idempotencyKey: Key,
  orderId: Type.Optional(Type.String()),
  comment: Type.Optional(Type.String()),
});
export type WalletHoldBody = Static<typeof WalletHoldBody>;

export const CouponHoldBody = Type.Object({
  organizationId: Str,
  number: Str,
  sum: Type.Number({ exclusiveMinimum: 0 }),
  idempotencyKey: Key,
  orderId: Type.Optional(Type.String()),
});
export type CouponHoldBody = Static<typeof CouponHoldBody>;

export const KeyBody = Type.Object({ idempotencyKey: Key });
export type KeyBody = Static<typeof KeyBody>;

export const SettleBody = Type.Object({ transactionId: Str, idempotencyKey: Key });
export type SettleBody = Static<typeof SettleBody>;

export const CouponInfoBody = Type.Object({ organizationId: Str, number: Str });
export type CouponInfoBody = Static<typeof CouponInfoBody>;

export const AccrualBody = Type.Object({
  organizationId: Str,
  phone: Str,
  orderId: Str,
  paidSum: Rub,
  idempotencyKey: Key,
});
export type AccrualBody = Static<typeof AccrualBody>;

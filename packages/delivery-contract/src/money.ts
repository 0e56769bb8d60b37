import { Type, type Static } from 'typebox';

/**
 * The largest amount the service accepts or computes, in kopecks (2 147 483 647 ≈ 21.4 million ₽): every Money
 * in a request and every line total, subtotal and total of a cart. Larger → 400 invalid_request, the same in
 * calculation and order creation (docs/decisions.md "Largest amount").
 */
export const MAX_AMOUNT_MINOR = 2_147_483_647;

/**
 * Money in the API, the one definition (schema and type): integer kopecks (`amountMinor`, at most
 * MAX_AMOUNT_MINOR) and the only currency, RUB. Spec: Resources, Money.
 */
export const Money = Type.Object(
  { amountMinor: Type.Integer({ maximum: MAX_AMOUNT_MINOR }), currency: Type.Literal('RUB') },
  { additionalProperties: false },
);
export type Money = Static<typeof Money>;

/** Money a client may send where a negative amount makes no sense (bonus to spend). */
export const NonNegativeMoney = Type.Object(
  { amountMinor: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT_MINOR }), currency: Type.Literal('RUB') },
  { additionalProperties: false },
);

import { Type, type Static, type TSchema } from 'typebox';
import Value from 'typebox/value';
import { LoyaltyError } from './loyalty.port.js';

/**
 * Wire format of the loyalty service (iiko Cloud shape; docs/loyalty.md lists the routes). Money travels as
 * decimal rubles and quantities as decimal amounts; the port speaks kopecks and thousandths. Answers are
 * checked against these schemas so a malformed answer becomes `unavailable`/`bad_response`, never a wrong price.
 */

/** Kopecks → rubles (12345 → 123.45). */
export const toRub = (minor: number): number => minor / 100;
/** Rubles → kopecks, rounded to the nearest kopeck (binary noise such as 0.1 + 0.2 must not leak). */
export const fromRub = (rub: number): number => Math.round(rub * 100);
/** Thousandths → decimal amount (1500 → 1.5). */
export const toAmount = (milli: number): number => milli / 1000;
/** Decimal amount → thousandths. */
export const fromAmount = (amount: number): number => Math.round(amount * 1000);

const Num = Type.Number();
const NullableStr = Type.Union([Type.String(), Type.Null()]);

export const TokenAnswer = Type.Object({ token: Type.String({ minLength: 1 }) });

export const CalculateAnswer = Type.Object({
  loyaltyProgramResults: Type.Array(
    Type.Object({
      marketingCampaignId: Type.String(),
      name: Type.String(),
      kind: Type.Union([Type.Literal('program'), Type.Literal('coupon')]),
      discountSum: Num,
      posDiscountId: NullableStr,
      freeProducts: Type.Array(Type.Object({ productId: Type.String(), amount: Num })),
    }),
  ),
  couponInfo: Type.Object({
    status: Type.Union([Type.Literal('not_requested'), Type.Literal('applied'), Type.Literal('invalid')]),
    discountSum: Num,
    reason: NullableStr,
  }),
  customer: Type.Union([Type.Object({ id: Type.String() }), Type.Null()]),
  availablePayments: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), balance: Num, maxSum: Num })),
  certificate: Type.Union([
    Type.Object({ status: Type.Union([Type.Literal('available'), Type.Literal('insufficient'), Type.Literal('invalid')]), available: Num }),
    Type.Null(),
  ]),
});
export type CalculateAnswer = Static<typeof CalculateAnswer>;

export const CustomerAnswer = Type.Object({
  id: Type.String(),
  walletBalances: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), balance: Num })),
});

/** customer/info as the guest profile reads it: names, categories and the guest's usable coupons (optional fields). */
export const GuestProfileAnswer = Type.Object({
  id: Type.String(),
  walletBalances: Type.Array(Type.Object({ id: Type.String(), name: Type.Optional(NullableStr), type: Type.String(), balance: Num })),
  categories: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), isActive: Type.Optional(Type.Boolean()) }))),
  coupons: Type.Optional(
    Type.Array(
      Type.Object({
        number: Type.String(),
        name: Type.Optional(NullableStr),
        percent: Type.Optional(Type.Union([Num, Type.Null()])),
        sum: Type.Optional(Type.Union([Num, Type.Null()])),
        validTo: Type.Optional(NullableStr),
      }),
    ),
  ),
});

const HoldView = Type.Object({
  transactionId: Type.String(),
  sum: Num,
  status: Type.Union([Type.Literal('held'), Type.Literal('confirmed'), Type.Literal('released')]),
});
export const HoldAnswer = HoldView;
export const HoldInfoAnswer = Type.Object({ hold: Type.Union([HoldView, Type.Null()]) });
export const AccrualAnswer = Type.Object({ accruedSum: Num });
export const AccrualInfoAnswer = Type.Object({ accrual: Type.Union([AccrualAnswer, Type.Null()]) });

/** Checks an answer body against its schema; a mismatch means we cannot trust it → `unavailable`. */
export function expectShape<T extends TSchema>(schema: T, body: unknown, what: string): Static<T> {
  if (!Value.Check(schema, body)) {
    const first = [...Value.Errors(schema, body)][0];
    throw new LoyaltyError('unavailable', 'bad_response', `${what}: unexpected answer (${first?.instancePath ?? ''} ${first?.message ?? ''})`);
  }
  return body as Static<T>;
}

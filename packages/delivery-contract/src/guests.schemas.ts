/**
 * Guest history and loyalty as the partner sees them (spec: In development; switch `guest-api`, the server's
 * docs/planned-features.md). Money in kopecks of RUB; timestamps are RFC 3339 strings.
 */
import { type Static, Type } from 'typebox';
import { Nullable } from '@app/shared/typebox';
import { OrderViewSchema } from './order-view.js';

const NullableNum = Type.Union([Type.Number(), Type.Null()]);

/**
 * Response of GET /v1/guests/{phone}/loyalty: balances per program, the level (the first active category, null
 * without one) and usable coupons. `found` is false when the loyalty service knows no guest with this phone (then
 * every list is empty); `pointId` is the point whose loyalty organization answered.
 */
export const GuestLoyaltySchema = Type.Object({
  found: Type.Boolean(),
  pointId: Type.String(),
  balances: Type.Array(
    Type.Object({
      programId: Type.String(),
      name: Nullable(Type.String()),
      type: Type.String(),
      balanceMinor: Type.Integer(),
      currency: Type.Literal('RUB'),
    }),
  ),
  level: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  categories: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  coupons: Type.Array(
    Type.Object({
      number: Type.String(),
      name: Nullable(Type.String()),
      percent: NullableNum,
      amountMinor: NullableNum,
      validTo: Nullable(Type.String()),
    }),
  ),
});
export type GuestLoyalty = Static<typeof GuestLoyaltySchema>;

/**
 * A delivery address of the guest's orders, as the order carried it, with the zone its location lies in today
 * among the source's routed points (null without location or zone); `lastUsedAt` is when the newest order with
 * this address was created.
 */
export const GuestAddressSchema = Type.Object({
  address: Type.Object({
    city: Nullable(Type.String()),
    street: Type.String(),
    house: Type.String(),
    flat: Nullable(Type.String()),
    entrance: Nullable(Type.String()),
    floor: Nullable(Type.String()),
  }),
  location: Type.Union([Type.Object({ lat: Type.Number(), lon: Type.Number() }), Type.Null()]),
  lastUsedAt: Type.String({ format: 'date-time' }),
  zone: Type.Union([Type.Object({ zoneId: Type.String(), pointId: Type.String(), name: Type.String() }), Type.Null()]),
});
export type GuestAddress = Static<typeof GuestAddressSchema>;

/** Response of GET /v1/guests/{phone}/addresses, newest first. */
export const GuestAddressesSchema = Type.Object({ addresses: Type.Array(GuestAddressSchema) });

/** Response of GET /v1/guests/{phone}/orders: newest first; `nextCursor` (opaque) is null on the last page. */
export const GuestOrdersPageSchema = Type.Object({ orders: Type.Array(OrderViewSchema), nextCursor: Nullable(Type.String()) });
export type GuestOrdersPage = Static<typeof GuestOrdersPageSchema>;

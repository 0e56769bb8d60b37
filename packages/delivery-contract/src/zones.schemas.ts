import { type Static, Type } from 'typebox';
import { strict } from '@app/shared/typebox';
import { Location } from './common.schemas.js';
import { Money } from './money.js';

const Eta = Type.Object({ min: Type.Integer(), max: Type.Integer() });

export const ZoneSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  polygon: Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), { description: '[latitude, longitude] pairs' }),
  minOrder: Money,
  deliveryFee: Money,
  freeDeliveryFrom: Type.Union([Money, Type.Null()]),
  etaMinutes: Eta,
  priority: Type.Integer(),
  active: Type.Boolean(),
});

export const ZonesReply = Type.Object({ zones: Type.Array(ZoneSchema) });

const Address = Type.Object(
  {
    city: Type.Optional(Type.String({ maxLength: 200 })),
    street: Type.Optional(Type.String({ maxLength: 300 })),
    house: Type.Optional(Type.String({ maxLength: 50 })),
  },
  strict,
);

export const ResolveBody = Type.Object(
  { deliveryType: Type.Union([Type.Literal('courier'), Type.Literal('pickup')]), location: Type.Optional(Location), address: Type.Optional(Address) },
  strict,
);

const StreetStatus = Type.Union([Type.Literal('ok'), Type.Literal('ambiguous'), Type.Literal('not_found'), Type.Literal('unknown')]);

export const ResolveReply = Type.Union([
  Type.Object({
    serviceable: Type.Literal(true),
    pointId: Type.String(),
    zoneId: Type.Union([Type.String(), Type.Null()]),
    minOrder: Money,
    deliveryFee: Money,
    freeDeliveryFrom: Type.Union([Money, Type.Null()]),
    etaMinutes: Eta,
    street: Type.Union([Type.Object({ status: StreetStatus, name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  }),
  Type.Object({
    serviceable: Type.Literal(false),
    reason: Type.Union([
      Type.Literal('outside_zones'),
      Type.Literal('no_location'),
      Type.Literal('geocoding_required'),
      Type.Literal('point_not_accepting'),
    ]),
  }),
]);

export const AddressCheckBody = Type.Object(
  {
    externalPointId: Type.String({ minLength: 1, maxLength: 64 }),
    street: Type.String({ minLength: 1, maxLength: 300 }),
    house: Type.Optional(Type.String({ maxLength: 50 })),
    city: Type.Optional(Type.String({ maxLength: 200 })),
  },
  strict,
);

const StreetRef = Type.Object({ name: Type.String(), city: Type.String() });
export const AddressCheckReply = Type.Object({
  status: StreetStatus,
  street: Type.Optional(StreetRef),
  candidates: Type.Optional(Type.Array(StreetRef)),
  house: Type.Optional(Type.String()),
});

export type DeliveryZone = Static<typeof ZoneSchema>;
/** Body of POST /v1/delivery/resolve. */
export type ResolveRequest = Static<typeof ResolveBody>;
export type ResolveResult = Static<typeof ResolveReply>;
/** Body of POST /v1/addresses/check. */
export type AddressCheckRequest = Static<typeof AddressCheckBody>;
export type AddressCheckResult = Static<typeof AddressCheckReply>;

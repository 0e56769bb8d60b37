import { Type } from 'typebox';
import { NutritionSchema } from '../catalog/catalog.schemas.js';

const strict = { additionalProperties: false } as const;
const Uuid = Type.String({ format: 'uuid' });
const Name = Type.String({ minLength: 1, maxLength: 500 });

/** Spec of the POS protocol: docs/pos-protocol.md. All bodies reject unknown fields. */
export const HeartbeatBody = Type.Object({}, strict);
export const HeartbeatReply = Type.Object({ serverTime: Type.String({ format: 'date-time' }), aliveWindowSeconds: Type.Integer() });

export const MenuPushBody = Type.Object(
  {
    categories: Type.Array(
      Type.Object(
        { id: Type.String({ minLength: 1, maxLength: 64 }), name: Name, sort: Type.Integer(), parentId: Type.Union([Type.String(), Type.Null()]) },
        strict,
      ),
      { maxItems: 2000 },
    ),
    items: Type.Array(
      Type.Object(
        {
          id: Uuid,
          categoryId: Type.String({ minLength: 1, maxLength: 64 }),
          name: Name,
          description: Type.String({ maxLength: 4000 }),
          priceMinor: Type.Integer({ minimum: 0, description: 'kopecks' }),
          weightGrams: Type.Number({ minimum: 0 }),
          nutrition: Type.Optional(Type.Object(NutritionSchema.properties, strict)),
          hidden: Type.Boolean(),
          gift: Type.Boolean(),
        },
        strict,
      ),
      { maxItems: 20000 },
    ),
  },
  strict,
);

export const StopListPushBody = Type.Object(
  { items: Type.Array(Type.Object({ id: Uuid, balance: Type.Number() }, strict), { maxItems: 20000 }) },
  strict,
);

export const StreetsPushBody = Type.Object(
  {
    streets: Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 300 }), city: Type.String({ maxLength: 200 }) }, strict), {
      maxItems: 100000,
    }),
  },
  strict,
);

export const ProductMappingsPushBody = Type.Object(
  {
    products: Type.Array(
      Type.Object(
        { externalProductId: Type.String({ minLength: 1, maxLength: 100 }), productId: Uuid, kind: Type.String({ minLength: 1, maxLength: 50 }) },
        strict,
      ),
      { maxItems: 20000 },
    ),
  },
  strict,
);

export const PushReply = Type.Object({
  revision: Type.String(),
  syncedAt: Type.String({ format: 'date-time' }),
  changed: Type.Boolean(),
});

/**
 * The catalog part of the POS protocol: what a POS plugin pushes for its terminal group (iiko "nomenclature",
 * stop-lists, streets, product mappings) and the answers. Prices in kopecks; item ids are POS product UUIDs.
 * Spec: docs/pos-protocol.md; all bodies reject unknown fields.
 */
import { type Static, Type } from 'typebox';
import { strict } from '@app/shared/typebox';
import { NutritionSchema } from './catalog.schemas.js';

const Uuid = Type.String({ format: 'uuid' });
const Name = Type.String({ minLength: 1, maxLength: 500 });

/** `POST /pos/v1/heartbeat`: empty body; the answer gives server time and the alive window in seconds. */
export const HeartbeatBody = Type.Object({}, strict);
export const HeartbeatReply = Type.Object({ serverTime: Type.String({ format: 'date-time' }), aliveWindowSeconds: Type.Integer() });

/** `POST /pos/v1/menu`: the terminal group's whole menu. */
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

/** `POST /pos/v1/stop-list`: remaining quantities (0 or less: out). */
export const StopListPushBody = Type.Object(
  { items: Type.Array(Type.Object({ id: Uuid, balance: Type.Number() }, strict), { maxItems: 20000 }) },
  strict,
);

/** `POST /pos/v1/streets`: the streets the terminal group delivers to. */
export const StreetsPushBody = Type.Object(
  {
    streets: Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 300 }), city: Type.String({ maxLength: 200 }) }, strict), {
      maxItems: 100000,
    }),
  },
  strict,
);

/** `POST /pos/v1/product-mappings`: partner product ids mapped to POS products. */
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

/** Answer to every catalog push: content revision, time of sync, whether the content changed. */
export const PushReply = Type.Object({
  revision: Type.String(),
  syncedAt: Type.String({ format: 'date-time' }),
  changed: Type.Boolean(),
});

export type HeartbeatReply = Static<typeof HeartbeatReply>;
export type PushReply = Static<typeof PushReply>;
/** Body of `POST /pos/v1/menu`. */
export type MenuPush = Static<typeof MenuPushBody>;
export type PosCategory = MenuPush['categories'][number];
export type PosMenuItem = MenuPush['items'][number];
export type StopListEntry = Static<typeof StopListPushBody>['items'][number];
export type Street = Static<typeof StreetsPushBody>['streets'][number];
export type ProductMapping = Static<typeof ProductMappingsPushBody>['products'][number];

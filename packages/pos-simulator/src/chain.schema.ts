import { Type, type Static } from 'typebox';

/**
 * TypeBox schemas of a chain description file (`chains/*.json`): the restaurant chain the POS simulator plays.
 * Every object rejects unknown fields so a typo in the data fails loudly instead of being ignored.
 * Field meanings follow delivery-partner-api.md, "Point", "Menu", "Stop-list", "Legacy product mapping".
 */
const strict = { additionalProperties: false } as const;
const Uuid = Type.String({ format: 'uuid' });
const NonEmpty = Type.String({ minLength: 1 });
/** Moscow wall-clock time `HH:MM` (00:00..23:59). */
const HhMm = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

/** One opening window; weekday 0 = Sunday; `close <= open` crosses midnight ("00:00"-"00:00" = 24 h). Spec: Point.schedule. */
export const ScheduleEntrySchema = Type.Object({ weekday: Type.Integer({ minimum: 0, maximum: 6 }), open: HhMm, close: HhMm }, strict);

/** The point's route for the chain's source: where the POS creates orders (iiko-style ids). */
export const RouteSchema = Type.Object(
  {
    organizationId: Uuid,
    terminalGroupId: Uuid,
    orderTypeId: Uuid,
    operatorUserId: Uuid,
    originName: NonEmpty,
    active: Type.Boolean(),
  },
  strict,
);

/** A restaurant point and what its POS has. Spec: "Point" (partner view), plus route and simulator fields. */
export const PointSchema = Type.Object(
  {
    /** Point number as a string ("101"). Spec: General rules 5. */
    pointId: Type.String({ pattern: '^[0-9]+$' }),
    name: NonEmpty,
    address: NonEmpty,
    location: Type.Object({ lat: Type.Number({ minimum: -90, maximum: 90 }), lon: Type.Number({ minimum: -180, maximum: 180 }) }, strict),
    phone: Type.String({ pattern: '^\\+7[0-9]{10}$' }),
    timezone: Type.Literal('Europe/Moscow'),
    schedule: Type.Union([Type.Array(ScheduleEntrySchema, { minItems: 1 }), Type.Null()]),
    deliveryTypes: Type.Array(Type.Union([Type.Literal('courier'), Type.Literal('pickup')]), { minItems: 1, uniqueItems: true }),
    /** Whether this point's POS plugin collects orders of the chain's source (spec: "Where website orders are collected today"). */
    collectsOrders: Type.Boolean(),
    route: RouteSchema,
    /** Key into `streetDictionaries`; null = this POS never pushed a street dictionary (resolve gives `unknown`). */
    streetsKey: Type.Union([NonEmpty, Type.Null()]),
  },
  strict,
);

/** Nutrition per 100 g and per portion (kcal, grams); portion = per100g × weightGrams / 100. Spec: MenuItem.nutrition. */
export const NutritionSchema = Type.Object(
  {
    kcalPer100g: Type.Number({ minimum: 0 }),
    proteinPer100g: Type.Number({ minimum: 0 }),
    fatPer100g: Type.Number({ minimum: 0 }),
    carbsPer100g: Type.Number({ minimum: 0 }),
    kcalPortion: Type.Number({ minimum: 0 }),
    proteinPortion: Type.Number({ minimum: 0 }),
    fatPortion: Type.Number({ minimum: 0 }),
    carbsPortion: Type.Number({ minimum: 0 }),
  },
  strict,
);

/** Menu category; `parentId` nests it (null = top level). Spec: Menu.categories. */
export const CategorySchema = Type.Object({ id: Uuid, name: NonEmpty, sort: Type.Integer(), parentId: Type.Union([Uuid, Type.Null()]) }, strict);

/** A POS product. `priceMinor` is kopecks; gift items cost 0 and cannot be ordered directly (spec: product_not_orderable). */
export const MenuItemSchema = Type.Object(
  {
    id: Uuid,
    categoryId: Uuid,
    name: NonEmpty,
    description: Type.String(),
    priceMinor: Type.Integer({ minimum: 0 }),
    weightGrams: Type.Number({ exclusiveMinimum: 0 }),
    nutrition: Type.Optional(NutritionSchema),
    hidden: Type.Boolean(),
    gift: Type.Boolean(),
  },
  strict,
);

/** Stop-list entry: product id and remaining balance (<= 0 = out of stock). Spec: Stop-list. */
export const StopListEntrySchema = Type.Object({ id: Uuid, balance: Type.Number() }, strict);
/** A street of a POS dictionary; the same name may appear under several cities (resolve: `ambiguous`). */
export const StreetSchema = Type.Object({ name: NonEmpty, city: NonEmpty }, strict);
/** Legacy partner product id (`site-<n>`) → POS product. Spec: Legacy product mapping. */
export const ProductMappingSchema = Type.Object({ externalProductId: NonEmpty, productId: Uuid, kind: NonEmpty }, strict);

/** The whole chain description file. */
export const ChainSchema = Type.Object(
  {
    tenant: Type.Object({ id: NonEmpty, name: NonEmpty, deliveryFeeProductId: Type.Optional(NonEmpty) }, strict),
    /** The partner source whose orders the routes carry (`website`). */
    source: NonEmpty,
    points: Type.Array(PointSchema, { minItems: 1 }),
    menu: Type.Object({ categories: Type.Array(CategorySchema, { minItems: 1 }), items: Type.Array(MenuItemSchema, { minItems: 1 }) }, strict),
    stopList: Type.Object(
      {
        /** Stop-list every terminal starts with (balance 0 = out of stock). */
        initial: Type.Array(StopListEntrySchema),
        /** Items the simulator moves in and out of the stop-list over time. */
        rotation: Type.Array(Uuid),
      },
      strict,
    ),
    streetDictionaries: Type.Record(Type.String(), Type.Array(StreetSchema, { minItems: 1 })),
    productMappings: Type.Array(ProductMappingSchema),
  },
  strict,
);

/** A parsed, validated chain description. See {@link ChainSchema}. */
export type ChainDescription = Static<typeof ChainSchema>;
export type ChainPoint = Static<typeof PointSchema>;
export type ChainMenu = ChainDescription['menu'];
export type ChainMenuItem = Static<typeof MenuItemSchema>;
export type ChainCategory = Static<typeof CategorySchema>;
export type StopListEntry = Static<typeof StopListEntrySchema>;
export type Street = Static<typeof StreetSchema>;
export type ProductMapping = Static<typeof ProductMappingSchema>;

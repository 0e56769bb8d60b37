import { type Static, Type } from 'typebox';
import { Money } from './money.js';

const Nutrition = Type.Object({
  kcalPer100g: Type.Number(),
  proteinPer100g: Type.Number(),
  fatPer100g: Type.Number(),
  carbsPer100g: Type.Number(),
  kcalPortion: Type.Number(),
  proteinPortion: Type.Number(),
  fatPortion: Type.Number(),
  carbsPortion: Type.Number(),
});

export const MenuSchema = Type.Object({
  pointId: Type.String(),
  revision: Type.String(),
  currency: Type.Literal('RUB'),
  categories: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), sort: Type.Integer(), parentId: Type.Union([Type.String(), Type.Null()]) }),
  ),
  items: Type.Array(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      categoryId: Type.String(),
      name: Type.String(),
      description: Type.String(),
      price: Money,
      weightGrams: Type.Number(),
      nutrition: Type.Optional(Nutrition),
      available: Type.Boolean(),
      unavailableReason: Type.Union([Type.Literal('stop_list'), Type.Null()]),
    }),
  ),
  syncedAt: Type.String({ format: 'date-time' }),
  stale: Type.Boolean(),
});

export const StopListSchema = Type.Object({
  pointId: Type.String(),
  revision: Type.String(),
  items: Type.Array(Type.Object({ id: Type.String(), balance: Type.Number() })),
  syncedAt: Type.String({ format: 'date-time' }),
  stale: Type.Boolean(),
});

export const CatalogRevisionSchema = Type.Object({
  points: Type.Record(Type.String(), Type.Object({ menu: Type.String(), stopList: Type.String() })),
});

export const ProductsSchema = Type.Object({
  externalPointId: Type.String(),
  products: Type.Array(Type.Object({ externalProductId: Type.String(), kind: Type.String() })),
});

export const IfNoneMatchHeaders = Type.Object({ 'if-none-match': Type.Optional(Type.String()) });

export { Nutrition as NutritionSchema };

/** Menu of a point (GET /v1/points/{pointId}/menu). */
export type Menu = Static<typeof MenuSchema>;
export type MenuItem = Menu['items'][number];
/** Stop-list of a point (GET /v1/points/{pointId}/stop-list). */
export type StopList = Static<typeof StopListSchema>;
/** Catalog revisions of every point (GET /v1/catalog/revision). */
export type CatalogRevision = Static<typeof CatalogRevisionSchema>;
/** Legacy product list of a point. */
export type LegacyProducts = Static<typeof ProductsSchema>;

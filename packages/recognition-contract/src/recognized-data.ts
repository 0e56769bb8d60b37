/**
 * Recognised data, `data` of a completed document (Spec: document-recognition-api.md, Resources, "Recognised data
 * (`data`)"). The one definition of the shape: the engine port, the AI answer schema, the routes, the callback
 * payload and docgen's ground truth all derive from it. Field names are the spec's (snake_case). Amounts are
 * roubles as JSON numbers with kopecks as decimals (1234.5 = 1 234 руб. 50 коп.); a field the engine could not
 * read is null.
 */
import { Nullable } from '@app/shared/typebox';
import { Type, type Static } from 'typebox';

/** Concrete document types; `auto` exists only as request input. */
export type DocumentType = 'upd' | 'torg12' | 'invoice';
/** The `image_quality` of a request (Spec: POST /api/v1/recognize). */
export type ImageQuality = 'photo' | 'scan' | 'screenshot';

/** Amounts of the Recognised data: roubles as JSON numbers, kopecks as the decimals (1234.5 = 1 234 руб. 50 коп.). */
export const Roubles = (description: string) =>
  Nullable(Type.Number({ description: `${description}; roubles (kopecks as decimals), null when unreadable` }));

/** A counterparty (Spec: Recognised data, `seller`, `buyer`). `inn` is digits only (10 or 12 when read correctly). */
export const PartySchema = Type.Object(
  {
    name: Nullable(Type.String()),
    inn: Nullable(Type.String({ description: 'INN (tax id), digits only; 10 or 12 digits when read correctly' })),
    kpp: Nullable(Type.String({ description: 'KPP (tax registration reason code), 9 characters' })),
    address: Type.Optional(Nullable(Type.String())),
  },
  { description: 'Spec: Recognised data, seller / buyer: name, inn, kpp, optional address' },
);
export type Party = Static<typeof PartySchema>;

/**
 * One line of the item table (Spec: Recognised data, `items[]`). `quantity` is in the document's unit;
 * `nds_rate` is a percent (0, 5, 7, 10, 20, 22) or null when unreadable; `nds_exempt` is true when the line says
 * "без НДС" (then `nds_rate` is null and `nds_amount` 0 or null). `unit.code` is the OKEI code as printed.
 */
export const LineItemSchema = Type.Object({
  number: Type.Integer({ description: 'line number as printed' }),
  name: Type.String(),
  product_code: Type.Optional(Nullable(Type.String())),
  unit: Type.Object({
    code: Nullable(Type.String({ description: 'OKEI code as printed, e.g. "796"' })),
    name: Nullable(Type.String({ description: 'short unit name, e.g. "шт"' })),
  }),
  quantity: Nullable(Type.Number({ description: "in the line's unit" })),
  price: Roubles('price per unit without VAT'),
  amount_without_nds: Roubles('line amount without VAT'),
  nds_rate: Nullable(Type.Number({ description: 'VAT rate in percent (0, 10, 20; 5, 7, 22 are read as printed); null when unreadable or exempt' })),
  nds_exempt: Type.Optional(Type.Boolean({ description: 'ours: true when the line says "без НДС" (then nds_rate is null)' })),
  nds_amount: Roubles('VAT amount of the line'),
  amount_with_nds: Roubles('line amount with VAT'),
});
export type LineItem = Static<typeof LineItemSchema>;

/** Recognised data exactly in the spec's shape. `document.date` is DD.MM.YYYY when read. */
export const RecognizedDataSchema = Type.Object(
  {
    document: Type.Object({
      number: Nullable(Type.String()),
      date: Nullable(Type.String({ description: 'DD.MM.YYYY' })),
    }),
    seller: PartySchema,
    buyer: PartySchema,
    items: Type.Array(LineItemSchema),
    totals: Type.Object({
      amount_without_nds: Roubles('total without VAT'),
      nds_amount: Roubles('total VAT'),
      amount_with_nds: Roubles('total with VAT'),
    }),
  },
  { description: 'Spec: Resources, Recognised data (`data`); amounts in roubles as numbers' },
);
export type RecognizedData = Static<typeof RecognizedDataSchema>;

/** A remark about one field (Spec: Document record, `warnings`: "remarks with the problem field"). */
export const WarningSchema = Type.Object({
  field: Type.String({ description: 'path of the problem field, e.g. `items[3].amount_with_nds`, `seller.inn`, `pages[1]`' }),
  message: Type.String(),
});
export type Warning = Static<typeof WarningSchema>;

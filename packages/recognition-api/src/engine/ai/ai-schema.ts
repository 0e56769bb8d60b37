import { Type, type Static } from 'typebox';

const Num = Type.Union([Type.Number(), Type.Null()]);
const Str = Type.Union([Type.String(), Type.Null()]);
const strict = { additionalProperties: false } as const;

const Party = Type.Object({ name: Str, inn: Str, kpp: Str, address: Str }, strict);

const Item = Type.Object(
  {
    number: Type.Integer(),
    name: Type.String(),
    product_code: Str,
    unit: Type.Object({ code: Str, name: Str }, strict),
    quantity: Num,
    price: Num,
    amount_without_nds: Num,
    nds_rate: Num,
    nds_exempt: Type.Boolean(),
    nds_amount: Num,
    amount_with_nds: Num,
  },
  strict,
);

/**
 * The JSON schema the AI model must answer with (`response_format: json_schema`, strict mode: every property
 * required, nulls for unreadable values). It is RecognizedData (engine.port.ts) plus the detected `document_type`.
 */
export const AiAnswer = Type.Object(
  {
    document_type: Type.Enum(['upd', 'torg12', 'invoice']),
    document: Type.Object({ number: Str, date: Str }, strict),
    seller: Party,
    buyer: Party,
    items: Type.Array(Item),
    totals: Type.Object({ amount_without_nds: Num, nds_amount: Num, amount_with_nds: Num }, strict),
  },
  strict,
);
/** The parsed AI answer: RecognizedData plus `document_type`. */
export type AiAnswerT = Static<typeof AiAnswer>;

/** Instructions sent with the page images. */
export const AI_PROMPT = [
  'You read Russian primary accounting documents (УПД, ТОРГ-12, счёт-фактура) from page images.',
  'Return only the JSON object of the schema. Copy values exactly as printed; use null for anything unreadable; never invent.',
  'document.date as DD.MM.YYYY. inn and kpp as digits/characters without spaces.',
  'Amounts in roubles as numbers with kopecks as decimals. nds_rate is the percent (0, 5, 7, 10, 20, 22) or null;',
  'for lines marked "без НДС" set nds_exempt true, nds_rate null, nds_amount 0. unit.code is the OKEI code, unit.name the short name.',
  'Lines are numbered as printed, starting at 1. document_type: upd, torg12 or invoice.',
].join('\n');

import { RecognizedDataSchema, type DocumentType, type RecognizedData } from '@app/recognition-contract';
import { type DeepRequired, literals, strictDeep } from '@app/shared/typebox';
import { Type } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The JSON schema the AI model must answer with (`response_format: json_schema`, strict mode: every property
 * required, no others, nulls for unreadable values): the contract's Recognised data plus the detected
 * `document_type`, made strict at every depth, so a field added to the contract reaches the model unchanged.
 */
export const AiAnswer = strictDeep(Type.Object({ document_type: literals(['upd', 'torg12', 'invoice']), ...RecognizedDataSchema.properties }));
/** The parsed AI answer: RecognizedData with every field present, plus `document_type`. */
export type AiAnswerT = { document_type: DocumentType } & DeepRequired<RecognizedData>;

/** Whether a parsed answer matches {@link AiAnswer} (every field present, nothing else). */
export const isAiAnswer = (value: unknown): value is AiAnswerT => Value.Check(AiAnswer, value);

/** Instructions sent with the page images. */
export const AI_PROMPT = [
  'You read Russian primary accounting documents (УПД, ТОРГ-12, счёт-фактура) from page images.',
  'Return only the JSON object of the schema. Copy values exactly as printed; use null for anything unreadable; never invent.',
  'document.date as DD.MM.YYYY. inn and kpp as digits/characters without spaces.',
  'Amounts in roubles as numbers with kopecks as decimals. nds_rate is the percent (0, 5, 7, 10, 20, 22) or null;',
  'for lines marked "без НДС" set nds_exempt true, nds_rate null, nds_amount 0. unit.code is the OKEI code, unit.name the short name.',
  'Lines are numbered as printed, starting at 1. document_type: upd, torg12 or invoice.',
].join('\n');

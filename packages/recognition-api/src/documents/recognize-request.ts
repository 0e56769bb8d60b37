import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { invalid } from '../errors.js';

/** Enumerations of the multipart text fields (Spec: POST /api/v1/recognize). */
export const FIELD_VALUES = {
  document_type: ['upd', 'torg12', 'invoice', 'auto'],
  image_quality: ['photo', 'scan', 'screenshot'],
  output_format: ['json', 'accounting'],
  priority: ['high', 'normal', 'batch'],
} as const;

/**
 * No C0 control character (NUL included) nor DEL: PostgreSQL text cannot hold NUL, and a reference or URL with
 * control characters is a mistake or an attack on logs (docs/decisions.md "Fuzz findings").
 */
const NO_CONTROL_CHARS = '^[^\\u0000-\\u001f\\u007f]*$';

/** The text fields of a recognition request, checked with TypeBox; unknown fields are refused. */
export const RecognizeFields = Type.Object(
  {
    document_type: Type.Enum([...FIELD_VALUES.document_type]),
    image_quality: Type.Enum([...FIELD_VALUES.image_quality]),
    output_format: Type.Optional(Type.Enum([...FIELD_VALUES.output_format])),
    priority: Type.Optional(Type.Enum([...FIELD_VALUES.priority])),
    callback_url: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: NO_CONTROL_CHARS })),
    client_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARS })),
  },
  { additionalProperties: false },
);
/** The text fields as sent (before defaults). */
export type RecognizeFieldsT = Static<typeof RecognizeFields>;

/** A validated recognition request with defaults applied (`output_format=json`, `priority=normal`). */
export interface RecognizeRequest {
  documentType: (typeof FIELD_VALUES.document_type)[number];
  imageQuality: (typeof FIELD_VALUES.image_quality)[number];
  outputFormat: 'json' | 'accounting';
  priority: 'high' | 'normal' | 'batch';
  callbackUrl: string | null;
  clientRef: string | null;
}

function describe(param: string, keyword: string, message: string): string {
  const allowed = (FIELD_VALUES as Record<string, readonly string[]>)[param];
  if (allowed && keyword === 'enum') return `must be one of ${allowed.join(', ')}`;
  if (keyword === 'pattern') return 'must not contain control characters (NUL, line breaks, tabs)';
  return message;
}

/**
 * Checks the text fields; throws 422 VALIDATION_ERROR whose message starts with the first bad parameter's name
 * (`document_type: must be one of upd, torg12, invoice, auto`). Lengths count characters, not bytes.
 */
export function parseRecognizeFields(fields: Record<string, string>): RecognizeRequest {
  const errors = [...Value.Errors(RecognizeFields, fields)];
  if (errors.length > 0) {
    const e = errors.find((x) => x.keyword !== 'boolean') ?? errors[0]!;
    const p = e.params as { requiredProperties?: string[]; additionalProperties?: string[] };
    if (p.requiredProperties) throw invalid(p.requiredProperties[0]!, 'is required');
    if (p.additionalProperties) throw invalid(p.additionalProperties[0]!, 'is not a parameter of this endpoint');
    const param = e.instancePath.replace(/^\//, '') || 'request';
    throw invalid(param, describe(param, e.keyword, e.message));
  }
  const f = fields as RecognizeFieldsT;
  return {
    documentType: f.document_type as RecognizeRequest['documentType'],
    imageQuality: f.image_quality as RecognizeRequest['imageQuality'],
    outputFormat: (f.output_format ?? 'json') as RecognizeRequest['outputFormat'],
    priority: (f.priority ?? 'normal') as RecognizeRequest['priority'],
    callbackUrl: f.callback_url ?? null,
    clientRef: f.client_ref ?? null,
  };
}

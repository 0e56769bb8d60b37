/** Why a formalized XML file was refused; stable machine-readable values for API error details. */
export type FormalizedXmlErrorCode =
  | 'too_large'
  | 'encoding'
  | 'dtd_forbidden'
  | 'malformed'
  | 'unknown_knd'
  | 'unsupported'
  | 'schema_invalid'
  | 'validator_unavailable'
  | 'incomplete';

/** One finding of the XSD validator: 1-based line of the XML (0 when xmllint gave none) and its message. */
export interface SchemaFinding {
  line: number;
  message: string;
}

/** A formalized XML file could not be read, written or validated; `code` says why, `findings` lists XSD errors. */
export class FormalizedXmlError extends Error {
  constructor(
    readonly code: FormalizedXmlErrorCode,
    message: string,
    readonly findings: SchemaFinding[] = [],
  ) {
    super(message);
    this.name = 'FormalizedXmlError';
  }
}

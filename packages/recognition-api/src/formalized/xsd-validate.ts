import { parseXmllintErrors as parseShared, runXmllintSchema } from '@app/shared';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { FormalizedXmlError, type SchemaFinding } from './errors.js';

/**
 * File name of the official FNS schema of the seller title, format 5.03 (order ЕД-7-26/970@). The repository does
 * not ship it: the operator downloads it from FNS and points RECOGNITION_UPD_XSD at it (docs/formalized-xml.md).
 */
export const UPD_SELLER_XSD_NAME = 'ON_NSCHFDOPPR_1_997_01_05_03_05.xsd';

const HOW_TO_PROVIDE =
  `set RECOGNITION_UPD_XSD to the absolute path of the official FNS schema ${UPD_SELLER_XSD_NAME} ` +
  '(published by FNS; not shipped with this repository, see docs/formalized-xml.md)';

/** `validator_unavailable` unless `xsdPath` is an absolute path of an existing file. */
function checkSchemaPath(xsdPath: string | undefined): FormalizedXmlError | undefined {
  if (!xsdPath) return new FormalizedXmlError('validator_unavailable', `no XSD schema configured: ${HOW_TO_PROVIDE}`);
  if (!isAbsolute(xsdPath)) return new FormalizedXmlError('validator_unavailable', `XSD path "${xsdPath}" is not absolute: ${HOW_TO_PROVIDE}`);
  let file = false;
  try {
    file = statSync(xsdPath).isFile();
  } catch {
    // missing or unreadable: reported below
  }
  return file ? undefined : new FormalizedXmlError('validator_unavailable', `XSD schema ${xsdPath} not found: ${HOW_TO_PROVIDE}`);
}

/** Parses xmllint's stderr into findings (the shared runner's parser; kept here for the formalized module's users). */
export const parseXmllintErrors: (stderr: string) => SchemaFinding[] = parseShared;

/**
 * Validates formalized XML bytes against an XSD with `xmllint --schema XSD --noout -` (Debian `libxml2-utils`),
 * run without a shell, the XML on stdin, network access off and entities not loaded (`runXmllintSchema` of
 * `@app/shared`, which the Diadoc simulator's check of posted documents runs too).
 * @param xml the file bytes exactly as stored (xmllint reads the declared encoding itself)
 * @param xsdPath absolute path of the schema, for the UPD the configured `RecognitionConfig.updXsd`
 *   (RECOGNITION_UPD_XSD); there is no default, the official schema is not in the repository
 * @returns resolves when the file is valid
 * @throws FormalizedXmlError `schema_invalid` with `findings` ({line, message}) when it is not;
 *   `validator_unavailable` when no schema is configured, the schema file is missing, or xmllint is missing,
 *   crashes or exceeds `timeoutMs` (default 10 s)
 */
export function validateAgainstXsd(xml: Buffer, xsdPath: string | undefined, timeoutMs = 10_000): Promise<void> {
  const unavailable = checkSchemaPath(xsdPath);
  if (unavailable) return Promise.reject(unavailable);
  return runXmllintSchema(xml, xsdPath as string, timeoutMs).then((verdict) => {
    if (verdict.status === 'valid') return;
    if (verdict.status === 'unavailable') throw new FormalizedXmlError('validator_unavailable', verdict.reason);
    const first = verdict.findings[0]?.message ?? 'invalid';
    throw new FormalizedXmlError('schema_invalid', `not valid against the XSD: ${first}`, verdict.findings);
  });
}

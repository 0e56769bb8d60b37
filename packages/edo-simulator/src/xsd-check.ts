import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { runXmllintSchema } from '@app/shared';
import { badRequest, DiadocError } from './http/diadoc-error.js';

/** Document types whose content is the FNS UPD/invoice file (КНД 1115131) the UPD schema describes. */
const UPD_TYPES = new Set(['UniversalTransferDocument', 'Invoice']);

/**
 * Whether a posted attachment is a UPD/invoice seller title of format 5.03 (the one schema the simulator checks):
 * its TypeNamedId is a UPD or invoice and its content's root `Файл` carries `ВерсФорм="5.03"` and its `Документ`
 * `КНД="1115131"`. Other versions (5.01, 5.02) and other types are not checked: their schemas differ.
 */
export function isUpd503(typeNamedId: string, xml: string): boolean {
  if (!UPD_TYPES.has(typeNamedId)) return false;
  // Not \b: JavaScript's word boundary is ASCII-only, and these names are Cyrillic.
  const root = /<Файл[\s>][^>]*>/.exec(xml)?.[0] ?? '';
  return /\sВерсФорм="5\.03"/.test(root) && /<Документ\s[^>]*КНД="1115131"/.test(xml);
}

/**
 * Checks at start that a configured schema is an absolute path of an existing file, so a typo shows at once and
 * not as a refused post.
 * @throws Error naming the path and the variables that set it
 */
export function checkUpdXsdPath(xsd: string): void {
  let file = false;
  try {
    file = isAbsolute(xsd) && statSync(xsd).isFile();
  } catch {
    // reported below
  }
  if (!file) throw new Error(`edo-simulator: UPD schema "${xsd}" is not an absolute path of a file (EDO_SIMULATOR_UPD_XSD / RECOGNITION_UPD_XSD)`);
}

/**
 * The simulator's XSD check of a posted formalized UPD/invoice 5.03. Diadoc checks a formalized document's content
 * against its format when it is posted; the answer to a bad one is not documented beyond "400: bad parameters" with a
 * plain-text body (reference/diadoc-api.md §5), so the simulator answers that, code `InvalidXml` as for content it
 * cannot read at all (docs/edo-gateway.md).
 * @param field the attachment's name in the request, e.g. `DocumentAttachments[0]`, for the error text
 * @throws DiadocError 400 `InvalidXml` with xmllint's first finding (line and message) when the content is not
 *   valid; 500 `InternalServerError` when xmllint gave no verdict (missing, timed out, schema not compilable)
 */
export async function checkAgainstUpdXsd(content: Buffer, xsd: string, field: string, timeoutMs = 10_000): Promise<void> {
  const verdict = await runXmllintSchema(content, xsd, timeoutMs);
  if (verdict.status === 'valid') return;
  if (verdict.status === 'unavailable') throw new DiadocError(500, 'InternalServerError', `XSD check failed: ${verdict.reason}`);
  const first = verdict.findings[0];
  const where = first && first.line > 0 ? `line ${first.line}: ` : '';
  throw badRequest(
    `${field}.SignedContent.Content is not valid against the format's XSD: ${where}${first?.message ?? 'invalid'}` +
      (verdict.findings.length > 1 ? ` (and ${verdict.findings.length - 1} more)` : ''),
    'InvalidXml',
  );
}

import { ApiError, invalid } from '../errors.js';
import { FormalizedXmlError, validateAgainstXsd, writeFormalizedUpd, type UpdWriteOptions, type WrittenUpd } from '../formalized/index.js';
import type { DocumentRecord } from './documents.types.js';

/**
 * What the seller title needs and a recognised paper cannot give (docs/formalized-upload.md): the signer and, for
 * a UPD, the transfer content. Query parameters of `export?format=upd-xml`, body fields of `edo-draft`.
 */
export interface UpdSellerInput {
  /** "Фамилия Имя [Отчество]" of the signer (`Подписант/ФИО`). */
  signer?: string;
  /** `Подписант/@Должн`. */
  signer_position?: string;
  /** `СпосПодтПолном` 1–6; default 1 (by the e-signature). */
  signer_authority?: string;
  /** `СвПер/@СодОпер` of a UPD, e.g. "Товары переданы". */
  operation?: string;
}

/** The signer and transfer options of {@link UpdSellerInput}, checked. @throws ApiError 422 VALIDATION_ERROR naming the field. */
export function sellerOptions(input: UpdSellerInput, documentType: 'upd' | 'invoice'): Pick<UpdWriteOptions, 'signer' | 'transfer'> {
  const words = (input.signer ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length < 2 || words.length > 3) throw invalid('signer', 'is required: the signer\'s "Фамилия Имя" or "Фамилия Имя Отчество"');
  const authority = input.signer_authority ?? '1';
  if (!/^[1-6]$/.test(authority)) throw invalid('signer_authority', 'must be 1 to 6 (СпосПодтПолном)');
  const operation = input.operation?.trim();
  if (documentType === 'upd' && !operation)
    throw invalid('operation', 'is required for a UPD: the transfer content (СодОпер), e.g. "Товары переданы"');
  return {
    signer: {
      surname: words[0]!,
      firstName: words[1]!,
      patronymic: words[2],
      position: input.signer_position?.trim() || undefined,
      authorityMethod: authority as UpdWriteOptions['signer']['authorityMethod'],
    },
    transfer: operation ? { operation } : undefined,
  };
}

/** The document's type as a seller title: a UPD or an invoice. @throws ApiError 422 for a ТОРГ-12 (no such format here). */
export function sellerTitleType(doc: DocumentRecord): 'upd' | 'invoice' {
  if (doc.documentType === 'upd' || doc.documentType === 'invoice') return doc.documentType;
  throw invalid('format', `a ${doc.documentType} document cannot be written as the UPD/invoice seller title (format 5.03)`);
}

/**
 * Writes a completed document as the 5.03 seller title and, when `xsdPath` is configured, validates it with
 * xmllint. Fields the document does not carry are left out (formalized/write-upd.ts), never invented.
 * @throws ApiError 422 VALIDATION_ERROR when the data lacks what the format requires (`incomplete`) or the XSD
 *   refuses the file (the findings in the message); 503 SERVICE_UNAVAILABLE when the configured XSD cannot be run.
 */
export async function writeSellerTitle(
  doc: DocumentRecord,
  options: UpdWriteOptions,
  xsdPath: string | undefined,
): Promise<WrittenUpd & { validated: boolean }> {
  const type = sellerTitleType(doc);
  let written: WrittenUpd;
  try {
    written = writeFormalizedUpd(doc.data!, type, options);
  } catch (err) {
    if (err instanceof FormalizedXmlError) throw invalid('document', `cannot be written as a UPD 5.03: ${err.message}`);
    throw err;
  }
  if (!xsdPath) return { ...written, validated: false };
  try {
    await validateAgainstXsd(written.xml, xsdPath);
  } catch (err) {
    if (!(err instanceof FormalizedXmlError)) throw err;
    if (err.code === 'schema_invalid')
      throw invalid('document', `the written UPD fails the FNS schema: ${err.findings.map((f) => `line ${f.line}: ${f.message}`).join('; ')}`);
    throw new ApiError('SERVICE_UNAVAILABLE', `the UPD schema check could not run: ${err.message}`);
  }
  return { ...written, validated: true };
}

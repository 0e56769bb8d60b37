/**
 * Formalized documents (FNS XML formats): reading the UPD / invoice seller title into recognised data, writing
 * recognised data as a seller-title draft, and XSD validation with xmllint. Independent of HTTP.
 * Docs: docs/formalized-xml.md.
 */
export { MAX_FORMALIZED_BYTES, decodeFormalized, formalizedCharset } from './decode.js';
export { FormalizedXmlError, type FormalizedXmlErrorCode, type SchemaFinding } from './errors.js';
export { KND_UPD_SELLER, READ_VERSIONS, parseVatRate, readFormalizedUpd, type FormalizedDocument, type UpdFunction } from './read-upd.js';
export {
  WRITE_VERSION,
  writeFormalizedUpd,
  type DocumentRef,
  type UpdExtras,
  type UpdSigner,
  type UpdWriteOptions,
  type WrittenUpd,
} from './write-upd.js';
export { simulatorUpdWriter } from './simulator-writer.js';
export { UPD_SELLER_XSD_NAME, parseXmllintErrors, validateAgainstXsd } from './xsd-validate.js';

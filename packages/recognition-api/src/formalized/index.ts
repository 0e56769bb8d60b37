/**
 * Formalized documents (FNS XML formats): reading the UPD / invoice and ТОРГ-12 seller titles into recognised data, writing
 * recognised data as a seller-title draft, and XSD validation with xmllint. Independent of HTTP.
 * Docs: docs/formalized-xml.md.
 */
export { MAX_FORMALIZED_BYTES, decodeFormalized, formalizedCharset } from './decode.js';
export { FormalizedXmlError, type FormalizedXmlErrorCode, type SchemaFinding } from './errors.js';
export { readFormalized } from './read.js';
export { KND_TORG12_SELLER, TORG12_READ_VERSIONS } from './read-torg12.js';
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

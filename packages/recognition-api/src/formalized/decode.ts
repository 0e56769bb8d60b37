import iconv from 'iconv-lite';
import { FormalizedXmlError } from './errors.js';

/**
 * Upper bound of a formalized file, in bytes (5 MiB). A UPD of several hundred lines is well under 1 MB; the bound
 * keeps a hostile upload from costing the parser and xmllint unbounded memory.
 */
export const MAX_FORMALIZED_BYTES = 5 * 1024 * 1024;

const DECLARATION = /^<\?xml\s[^?]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["'][^?]*\?>/;
const UTF8 = new Set(['utf-8', 'utf8']);
const CP1251 = new Set(['windows-1251', 'cp1251', 'win-1251']);
// Fatal: a wrong declaration must be refused, not read as replacement characters.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The encoding an XML declaration names, lower-cased; `utf-8` without one (XML 1.0). */
function declaredEncoding(body: Buffer): string {
  // The declaration is ASCII in both encodings, so it can be read before decoding.
  const head = body.subarray(0, 200).toString('latin1');
  return DECLARATION.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
}

/**
 * The `charset` of a formalized file that {@link decodeFormalized} accepted, for its `Content-Type` when it is sent
 * back as received: `windows-1251` when its declaration names it (or an alias), else `utf-8`.
 */
export function formalizedCharset(bytes: Buffer): 'windows-1251' | 'utf-8' {
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return CP1251.has(declaredEncoding(hasBom ? bytes.subarray(3) : bytes)) ? 'windows-1251' : 'utf-8';
}

/**
 * Decodes the bytes of a formalized file to text by the encoding its XML declaration names (`windows-1251` as the
 * FNS formats require, or UTF-8; no declaration means UTF-8 per XML 1.0) and refuses what must not be parsed.
 * @throws FormalizedXmlError `too_large` above {@link MAX_FORMALIZED_BYTES}; `encoding` for another declared
 *   encoding or bytes that are not valid in the declared one; `dtd_forbidden` for any `<!DOCTYPE` / `<!ENTITY`
 *   (internal subsets and external entities are never expanded, so they are refused outright).
 */
export function decodeFormalized(bytes: Buffer): string {
  if (bytes.length > MAX_FORMALIZED_BYTES) {
    throw new FormalizedXmlError('too_large', `file is ${bytes.length} bytes; the limit is ${MAX_FORMALIZED_BYTES}`);
  }
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;
  const declared = declaredEncoding(body);
  let text: string;
  if (CP1251.has(declared)) {
    if (hasBom) throw new FormalizedXmlError('encoding', 'a UTF-8 byte order mark in a file declared windows-1251');
    text = iconv.decode(body, 'win1251');
  } else if (UTF8.has(declared)) {
    try {
      text = strictUtf8.decode(body);
    } catch {
      throw new FormalizedXmlError('encoding', 'bytes are not valid UTF-8 as declared');
    }
  } else {
    throw new FormalizedXmlError('encoding', `unsupported declared encoding "${declared}" (windows-1251 or UTF-8)`);
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new FormalizedXmlError('dtd_forbidden', 'a DTD or entity declaration is not accepted in a formalized file');
  }
  return text;
}

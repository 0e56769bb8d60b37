import { spawn } from 'node:child_process';
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

const FINDING = /^-:(\d+):\s*(?:element [^:]+:\s*)?(?:Schemas validity error\s*:\s*)?(.*)$/;

/** Parses xmllint's stderr (`-:LINE: element X: Schemas validity error : MESSAGE`) into findings. */
export function parseXmllintErrors(stderr: string): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  for (const raw of stderr.split('\n')) {
    const line = raw.trim();
    if (!line || / validates$| fails to validate$/.test(line)) continue;
    const m = FINDING.exec(line);
    out.push(m ? { line: Number(m[1]), message: m[2]!.trim() } : { line: 0, message: line });
  }
  return out;
}

/**
 * Validates formalized XML bytes against an XSD with `xmllint --schema XSD --noout -` (Debian `libxml2-utils`),
 * run without a shell, the XML on stdin, network access off and entities not loaded.
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
  const schema = xsdPath as string;
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--nonet', '--noout', '--schema', schema, '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (err?: FormalizedXmlError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      err ? reject(err) : resolve();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new FormalizedXmlError('validator_unavailable', `xmllint did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 200_000) stderr += chunk;
    });
    child.on('error', (e) => finish(new FormalizedXmlError('validator_unavailable', `xmllint cannot run: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0) return finish();
      // 3 and 4: the document is not valid / not well-formed; others: xmllint itself failed (e.g. schema unreadable).
      if (code === 3 || code === 4 || code === 1) {
        const findings = parseXmllintErrors(stderr);
        const first = findings[0]?.message ?? 'invalid';
        return finish(new FormalizedXmlError('schema_invalid', `not valid against the XSD: ${first}`, findings));
      }
      finish(new FormalizedXmlError('validator_unavailable', `xmllint exited with ${code}: ${stderr.slice(0, 300)}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(xml);
  });
}

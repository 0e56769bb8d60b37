import { spawn } from 'node:child_process';

/** One schema finding of xmllint: the line of the XML (0 when xmllint gave none) and its message. */
export interface XmllintFinding {
  line: number;
  message: string;
}

/**
 * What xmllint said of a file: `valid`; `invalid` with the findings (not valid against the schema, or not
 * well-formed); `unavailable` when there is no verdict on the file (xmllint missing, crashed, timed out, or the
 * schema could not be compiled), with the reason.
 */
export type XmllintVerdict = { status: 'valid' } | { status: 'invalid'; findings: XmllintFinding[] } | { status: 'unavailable'; reason: string };

const FINDING = /^-:(\d+):\s*(?:element [^:]+:\s*)?(?:Schemas validity error\s*:\s*)?(.*)$/;

/** Parses xmllint's stderr (`-:LINE: element X: Schemas validity error : MESSAGE`) into findings. */
export function parseXmllintErrors(stderr: string): XmllintFinding[] {
  const out: XmllintFinding[] = [];
  for (const raw of stderr.split('\n')) {
    const line = raw.trim();
    if (!line || / validates$| fails to validate$/.test(line)) continue;
    const m = FINDING.exec(line);
    out.push(m ? { line: Number(m[1]), message: m[2]!.trim() } : { line: 0, message: line });
  }
  return out;
}

/**
 * Runs `xmllint --nonet --noout --schema XSD -` (Debian `libxml2-utils`) without a shell, the XML on stdin: network
 * access off, entities not loaded. Shared by the recognition API's formalized validator and the Diadoc simulator's
 * check of posted formalized documents, so both judge a file the same way.
 * @param xml the file bytes exactly as stored (xmllint reads the declared encoding itself)
 * @param xsdPath path of the schema file; the caller checks that it is configured and exists
 * @param timeoutMs xmllint is killed after this many milliseconds (then `unavailable`)
 * @returns the verdict; never rejects
 */
export function runXmllintSchema(xml: Buffer, xsdPath: string, timeoutMs = 10_000): Promise<XmllintVerdict> {
  return new Promise((resolve) => {
    const child = spawn('xmllint', ['--nonet', '--noout', '--schema', xsdPath, '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (v: XmllintVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ status: 'unavailable', reason: `xmllint did not finish within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 200_000) stderr += chunk;
    });
    child.on('error', (e) => finish({ status: 'unavailable', reason: `xmllint cannot run: ${e.message}` }));
    child.on('close', (code) => {
      if (code === 0) return finish({ status: 'valid' });
      // 1, 3 and 4: the document is not well-formed / not valid; others: xmllint itself failed (e.g. schema unreadable).
      if (code === 3 || code === 4 || code === 1) return finish({ status: 'invalid', findings: parseXmllintErrors(stderr) });
      finish({ status: 'unavailable', reason: `xmllint exited with ${code}: ${stderr.slice(0, 300)}` });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(xml);
  });
}

import { readFile } from 'node:fs/promises';
import type { TerminalCredential } from './simulator.js';

/**
 * Reads POS credentials from a JSON file in either of two shapes:
 * - `[{pointId, apiKey, apiSecret}, ...]`;
 * - the demo's `data/demo-pos-credentials.json`: `{pos: {"<pointId>": {apiKey, apiSecret}}, ...}`.
 * @throws Error naming the file and the entry that is wrong.
 */
export async function loadCredentials(path: string): Promise<TerminalCredential[]> {
  return parseCredentials(JSON.parse(await readFile(path, 'utf8')), path);
}

/** See {@link loadCredentials}. */
export function parseCredentials(raw: unknown, origin = 'credentials'): TerminalCredential[] {
  const pos = (raw as { pos?: unknown } | null)?.pos;
  const entries: unknown[] = Array.isArray(raw)
    ? raw
    : pos && typeof pos === 'object'
      ? Object.entries(pos as Record<string, object>).map(([pointId, c]) => ({ pointId, ...c }))
      : [];
  if (entries.length === 0) throw new Error(`${origin}: expected [{pointId, apiKey, apiSecret}] or {pos: {<pointId>: {apiKey, apiSecret}}}`);
  return entries.map((e, i) => {
    const c = e as Partial<TerminalCredential>;
    for (const f of ['pointId', 'apiKey', 'apiSecret'] as const) {
      if (typeof c[f] !== 'string' || !c[f]) throw new Error(`${origin}: entry ${i} needs a non-empty string ${f}`);
    }
    return { pointId: c.pointId!, apiKey: c.apiKey!, apiSecret: c.apiSecret! };
  });
}

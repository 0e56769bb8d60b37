import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `data/demo-credentials.json`: what a new user needs to call the demo (README). Written at every start.
 * The POS credentials of the simulator live in `data/demo-pos-credentials.json` (secrets are shown only once).
 */
export interface DemoCredentialsFile {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  source: string;
  pointIds: string[];
  /** The point whose POS collects the website's orders (the spec: one enabled point). */
  orderPointId: string;
  recognition?: { baseUrl: string; apiKey: string };
  /** The administration panel of the recognition API; `password` is null when set for production (ADMIN_PASSWORD_HASH). */
  admin?: { url: string; username: string; password: string | null };
  /** The Diadoc simulator of the e-document gateway; `connected` when the gateway uses it. */
  edoSimulator?: { apiUrl: string; issuerUrl: string; boxId: string; connected: boolean };
  webhookReceiver?: { url: string };
  /** The delivery API's support console (role admin); `password` is null when it was changed since it was shown. */
  console?: { url: string; username: string; password: string | null };
  /** A second source with every per-source switch on (guest API, /v1/status, catalog events, rate limits). */
  planned?: { source: string; apiKey: string; apiSecret: string };
}

export function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

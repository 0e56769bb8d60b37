import type { FormalizedWriter } from './xml.js';
import { randomIds, systemClock, type Clock, type IdSource } from '@app/shared';
import { boxIdOf } from './box-ids.js';
import { Faults } from './faults.js';
import { buildDiadocApp } from './http/app.js';
import type { SimState } from './model.js';
import { SimIdentityProvider } from './oidc.js';
import { seedState } from './seed.js';
import { checkUpdXsdPath } from './xsd-check.js';

export { Faults, type Fault, type FaultKind } from './faults.js';
export { SimIdentityProvider, DIADOC_SCOPE } from './oidc.js';
export { SEEDED_DOCUMENTS } from './seed.js';
export type { FormalizedWriter } from './xml.js';
export { normalizeBoxId, boxIdOf } from './box-ids.js';
export type * from './model.js';

export interface StartEdoSimulatorOptions {
  /** Port of the Diadoc API (0 = random); the identity provider takes another random port. */
  port?: number;
  /** Default 127.0.0.1 (the control endpoints have no auth). */
  host?: string;
  /** Time of token expiry checks and of new documents/events; tests pass a ManualClock. */
  clock?: Clock;
  ids?: IdSource;
  /** OAuth client registered at the identity provider; defaults `edo-simulator-client` / a fixed demo secret. */
  clientId?: string;
  clientSecret?: string;
  /** Writes the seeded UPDs/invoices as the FNS 5.03 seller title (the recognition API's writer); default the simulator's sketch. */
  writeFormalized?: FormalizedWriter;
  /**
   * Absolute path of the XSD of the UPD/invoice seller title 5.03 (officially ON_NSCHFDOPPR_1_997_01_05_03_05.xsd,
   * not in the repository): when set, PostMessage checks each posted UniversalTransferDocument/Invoice 5.03
   * (root `Файл ВерсФорм="5.03"`, `КНД="1115131"`) against it with xmllint and refuses an invalid one with 400
   * `InvalidXml`, storing nothing. Unset: no check. `npm start` and main.ts take EDO_SIMULATOR_UPD_XSD, else
   * RECOGNITION_UPD_XSD ({@link updXsdFromEnv}).
   * @throws at start when it is not an absolute path of an existing file
   */
  updXsd?: string;
}

/** The schema of the simulator's check from the environment: EDO_SIMULATOR_UPD_XSD, else RECOGNITION_UPD_XSD, else none. */
export function updXsdFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.EDO_SIMULATOR_UPD_XSD?.trim() || env.RECOGNITION_UPD_XSD?.trim() || undefined;
}

/** A running simulator: the Diadoc API and its identity provider, with ready-made connection values. */
export interface RunningEdoSimulator {
  /** Diadoc API base URL, e.g. `http://127.0.0.1:41234`. */
  apiUrl: string;
  /** OIDC issuer URL (discovery at `/.well-known/openid-configuration`, tokens at `/connect/token`). */
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** A refresh token of the box administrator, valid until revoked. */
  refreshToken: string;
  /** Our box id in Diadoc's `…@diadoc.ru` form. */
  boxId: string;
  state: SimState;
  faults: Faults;
  idp: SimIdentityProvider;
  /** Every Diadoc API request received, `METHOD /path` (control endpoints excluded). */
  requests: string[];
  /** The same requests with their query strings, `METHOD /path?query`. */
  requestUrls: string[];
  close(): Promise<void>;
}

/** Starts the Diadoc simulator with its seeded box (see seed.ts) and identity provider. */
export async function startEdoSimulator(opts: StartEdoSimulatorOptions = {}): Promise<RunningEdoSimulator> {
  if (opts.updXsd) checkUpdXsdPath(opts.updXsd);
  const host = opts.host ?? '127.0.0.1';
  const clock = opts.clock ?? systemClock;
  const clientId = opts.clientId ?? 'edo-simulator-client';
  const clientSecret = opts.clientSecret ?? 'edo-simulator-secret';
  const state = seedState(opts.writeFormalized);
  const idp = new SimIdentityProvider(clock, new Map([[clientId, clientSecret]]));
  const issuerUrl = await idp.start(host);
  const faults = new Faults();
  const requests: string[] = [];
  const requestUrls: string[] = [];
  const app = buildDiadocApp({ state, clock, ids: opts.ids ?? randomIds, idp, requests, requestUrls, updXsd: opts.updXsd }, faults);
  await app.listen({ port: opts.port ?? 0, host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    apiUrl: `http://${host}:${port}`,
    issuerUrl,
    clientId,
    clientSecret,
    refreshToken: idp.issueRefreshToken(clientId, state.meUserId),
    boxId: boxIdOf(state.ours.boxGuid),
    state,
    faults,
    idp,
    requests,
    requestUrls,
    async close() {
      await app.close();
      await idp.close();
    },
  };
}

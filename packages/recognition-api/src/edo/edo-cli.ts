import { randomIds, systemClock } from '@app/shared';
import { ApiError } from '../errors.js';
import { loadRecognitionConfig } from '../config.js';
import { openRecognitionDb } from '../db.js';
import type { EdoConnectionInput } from './edo-connection.service.js';
import { createEdoServices } from './edo.module.js';
import { loadMasterKey } from './master-key.js';

const USAGE = [
  'usage: recognition-admin edo set [--client-id ID] [--client-secret S] [--refresh-token T] [--box-id BOX] [--issuer-url URL] [--api-base-url URL] [--scope S]',
  '       recognition-admin edo show | test | clear',
  'Values not given as flags come from DIADOC_* variables, then from the stored connection (secrets are best passed',
  'as DIADOC_CLIENT_SECRET / DIADOC_REFRESH_TOKEN so they stay out of the shell history).',
].join('\n');

const FLAGS: Record<string, keyof EdoConnectionInput> = {
  '--client-id': 'clientId',
  '--client-secret': 'clientSecret',
  '--refresh-token': 'refreshToken',
  '--box-id': 'boxId',
  '--issuer-url': 'issuerUrl',
  '--api-base-url': 'apiBaseUrl',
  '--scope': 'scope',
};

/**
 * The e-document operator connection from the command line (like `recognition-admin keys`; the admin panel uses the same
 * EdoConnectionAdmin): `set` stores it (secrets sealed with the master key), `show` prints it without secrets,
 * `test` runs the health check (exit 0 only when connected), `clear` removes it. Same DATABASE_URL / DATA_DIR /
 * EDO_MASTER_KEY as the service; with embedded PGlite, stop the service first (one process per data folder).
 */
export async function runEdoCli(argv: string[], out: (line: string) => void = console.log, env = process.env): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || !['set', 'show', 'test', 'clear'].includes(cmd)) {
    out(USAGE);
    return 2;
  }
  const input: EdoConnectionInput = {};
  for (let i = 0; i < rest.length; i += 2) {
    const field = FLAGS[rest[i]!];
    if (!field || rest[i + 1] === undefined) {
      out(`unknown or incomplete option ${rest[i]}\n${USAGE}`);
      return 2;
    }
    input[field] = rest[i + 1];
  }
  const config = loadRecognitionConfig(env);
  const db = await openRecognitionDb(config);
  const edo = createEdoServices(db, systemClock, randomIds, {
    masterKey: loadMasterKey(config.edo.masterKey, config.dataDir),
    timeoutMs: config.edo.timeoutMs,
  });
  try {
    if (cmd === 'set') {
      const view = await edo.connection.set({ ...config.edo.seed, ...input });
      out(`stored the ${view.operator} connection, revision ${view.revision} (secrets sealed; never shown)`);
      out(JSON.stringify(view, null, 2));
      return 0;
    }
    if (cmd === 'show') {
      const view = await edo.connection.show();
      out(view ? JSON.stringify(view, null, 2) : 'no connection stored');
      return view ? 0 : 1;
    }
    if (cmd === 'clear') {
      out((await edo.connection.clear()) ? 'connection removed' : 'no connection stored');
      return 0;
    }
    const { ok, body } = await edo.connection.test();
    out(JSON.stringify(body, null, 2));
    return ok ? 0 : 1;
  } catch (err) {
    if (err instanceof ApiError) {
      out(`${err.code}: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await edo.session.reset();
    await db.close();
  }
}

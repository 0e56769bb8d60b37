import { systemClock } from '@app/shared';
import { loadRecognitionConfig } from '../config.js';
import { openRecognitionDb } from '../db.js';
import { KeysRepo, parseScopes, type ApiScope } from './keys.repo.js';

/**
 * API key administration from the command line (Spec: Authentication, rule 1; the panel does the same):
 *   recognition-admin keys create --name "Accounting" [--scopes recognition,edo]
 *   recognition-admin keys list
 *   recognition-admin keys set-scopes key_0123abcd recognition,edo
 *   recognition-admin keys deactivate key_0123abcd
 *   recognition-admin keys callback-secret key_0123abcd   (rotates and prints it)
 * Uses the same DATABASE_URL / DATA_DIR as the service. `create` prints the key and its callback signing secret
 * once; only the key's hash is kept (the secret is kept, since the service signs with it).
 * Scopes (docs/edo-gateway.md): `recognition` (default) and `edo` (the /api/v1/edo gateway).
 */
export async function runKeysCli(argv: string[], out: (line: string) => void = console.log, env = process.env): Promise<number> {
  const [cmd, ...rest] = argv;
  const usage =
    'usage: recognition-admin keys create --name NAME [--scopes recognition,edo] | list | deactivate KEY_ID | set-scopes KEY_ID recognition,edo | callback-secret KEY_ID';
  if (!cmd || !['create', 'list', 'deactivate', 'set-scopes', 'callback-secret'].includes(cmd)) {
    out(usage);
    return 2;
  }
  const flag = (name: string) => (rest.includes(name) ? (rest[rest.indexOf(name) + 1] ?? '') : undefined);
  const scopesArg = cmd === 'create' ? flag('--scopes') : cmd === 'set-scopes' ? (rest[1] ?? '') : undefined;
  const scopes: ApiScope[] | null = scopesArg === undefined ? ['recognition'] : parseScopes(scopesArg);
  if (!scopes) {
    out(`scopes: a comma list of recognition, edo; got "${scopesArg}"`);
    out(usage);
    return 2;
  }
  const config = loadRecognitionConfig(env);
  const db = await openRecognitionDb(config);
  try {
    const keys = new KeysRepo(db, systemClock);
    if (cmd === 'create') {
      const i = rest.indexOf('--name');
      const name = i >= 0 ? rest[i + 1] : undefined;
      if (!name) {
        out(usage);
        return 2;
      }
      const { key, callbackSecret, record } = await keys.create(name, undefined, scopes);
      out(`created ${record.id} (${record.name}) scopes ${record.scopes.join(',')}`);
      out(`X-API-Key: ${key}`);
      out(`Callback signing secret: ${callbackSecret}`);
      out("Store both now: they are not shown again (only the key's SHA-256 hash is kept).");
      return 0;
    }
    if (cmd === 'callback-secret') {
      const secret = rest[0] ? await keys.rotateCallbackSecret(rest[0]) : null;
      if (!secret) {
        out(`no key ${rest[0] ?? ''}`);
        return 1;
      }
      out(`Callback signing secret: ${secret}`);
      out('The previous secret no longer verifies; pending callbacks are signed with this one.');
      return 0;
    }
    if (cmd === 'list') {
      for (const k of await keys.list()) {
        out(
          `${k.id}\t${k.keyPrefix}…\t${k.deactivatedAt ? 'deactivated' : 'active'}\t${k.createdAt.toISOString()}\t${k.name}\t${k.scopes.join(',')}`,
        );
      }
      return 0;
    }
    if (cmd === 'set-scopes') {
      const id = rest[0] ?? '';
      if (!(await keys.setScopes(id, scopes))) {
        out(`no key ${id}`);
        return 1;
      }
      out(`${id} scopes ${scopes.join(',')}`);
      return 0;
    }
    const id = rest[0];
    if (!id || !(await keys.deactivate(id))) {
      out(`no active key ${id ?? ''}`);
      return 1;
    }
    out(`deactivated ${id}`);
    return 0;
  } finally {
    await db.close();
  }
}

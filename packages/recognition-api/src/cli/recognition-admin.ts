import { pathToFileURL } from 'node:url';
import { runAdminCli } from '../admin-web/admin-cli.js';
import { runEdoCli } from '../edo/edo-cli.js';
import { runKeysCli } from '../keys/keys-cli.js';

const USAGE = [
  'usage: recognition-admin keys|edo|admin <command> …',
  '  keys   API keys: create, list, set-scopes, deactivate, callback-secret',
  '  edo    the e-document operator connection: set, show, test, clear',
  '  admin  panel accounts: hash, set-password, create-user, disable, enable, list',
  "`recognition-admin <group>` alone prints the group's commands. Uses DATABASE_URL / DATA_DIR like the service;",
  'with embedded PGlite stop the service first (one process per data folder).',
].join('\n');

const GROUPS: Record<string, (argv: string[], out: (line: string) => void, env: NodeJS.ProcessEnv) => Promise<number>> = {
  keys: runKeysCli,
  edo: runEdoCli,
  admin: runAdminCli,
};

/**
 * The recognition service's administration command (`bin/recognition-admin.mjs`, like delivery-operator): one
 * entry with the subcommands `keys`, `edo` and `admin`. Returns the exit code: 0 done, 1 not found / not
 * connected, 2 usage.
 */
export async function runRecognitionAdmin(argv: string[], out: (line: string) => void = console.log, env = process.env): Promise<number> {
  const [group, ...rest] = argv;
  if (group === '--help' || group === '-h' || group === 'help') {
    out(USAGE);
    return 0;
  }
  const run = group ? GROUPS[group] : undefined;
  if (!run) {
    out(USAGE);
    return 2;
  }
  return run(rest, out, env);
}

/** Runs with the process's arguments and exits with the command's code (the bin's entry). */
export async function main(): Promise<void> {
  process.exit(await runRecognitionAdmin(process.argv.slice(2)));
}

// Run directly (`npm run recognition-admin`, tsx); the bin imports this module and calls main itself.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

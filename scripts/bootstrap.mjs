#!/usr/bin/env node
// Makes `npm start` and `npm test` work on a fresh clone: installs the npm dependencies when they are
// missing or older than package-lock.json, then runs the per-package system checks (e.g. Tesseract).
// Uses only Node built-ins because it runs before anything is installed.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

function log(msg) {
  process.stderr.write(`[bootstrap] ${msg}\n`);
}

const needsInstall = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (needsInstall) {
  const cmd = existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  log(`installing npm dependencies (npm ${cmd[0]}); this happens once on a fresh clone...`);
  const r = spawnSync('npm', cmd, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    log(`npm ${cmd[0]} failed with exit code ${r.status}`);
    process.exit(r.status ?? 1);
  }
  log('dependencies installed');
}

// Per-package system prerequisites: packages/*/scripts/check-system.mjs (exit non-zero with a message to stop).
for (const pkg of readdirSync(join(root, 'packages'))) {
  const check = join(root, 'packages', pkg, 'scripts', 'check-system.mjs');
  if (!existsSync(check)) continue;
  const r = spawnSync(process.execPath, [check], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

#!/usr/bin/env node
// `npm run build`: compiles every package's src/ to its dist/ (and scripts/ to dist/scripts/) with `tsc -b`
// (project references: tsconfig.build.json), then copies the files that are not TypeScript (the admin panel's
// views and static files) beside the JavaScript that reads them. Incremental: a second run with nothing changed
// takes a second or two. Plain Node, no dependencies but TypeScript.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  process.stderr.write(`[build] tsc -b failed (exit ${r.status})\n`);
  process.exit(r.status ?? 1);
}

// Non-TypeScript files under src/ (Eta views, CSS, browser JS) keep their place relative to the compiled code.
const isAsset = (name) => !name.endsWith('.ts') && !name.endsWith('.mjs');
for (const pkg of readdirSync(join(root, 'packages'))) {
  const src = join(root, 'packages', pkg, 'src');
  if (!existsSync(src)) continue;
  cpSync(src, join(root, 'packages', pkg, 'dist'), {
    recursive: true,
    filter: (from) => statSync(from).isDirectory() || isAsset(from),
  });
}

#!/usr/bin/env node
// The worker-only recognition process (no HTTP): the compiled dist/worker.js after `npm run build` (production),
// else the TypeScript source through tsx.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/worker.ts');
}

#!/usr/bin/env node
// The recognition administration command (keys | edo | admin). After `npm run build` (production) it runs the
// compiled code with plain node; in a checkout without a build it runs the TypeScript source through tsx. In
// development prefer `npm run recognition-admin`, which always runs the source.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/recognition-admin.js', import.meta.url);
let cli;
if (existsSync(compiled)) {
  cli = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/recognition-admin.ts');
}
await cli.main();

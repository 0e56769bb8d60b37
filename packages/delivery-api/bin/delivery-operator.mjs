#!/usr/bin/env node
// Runs the TypeScript operator CLI through tsx (no build step).
import { register } from 'tsx/esm/api';
register();
const { runCli } = await import('../src/operator/cli.ts');
await runCli();

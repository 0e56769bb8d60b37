#!/usr/bin/env node
// The worker-only recognition process (no HTTP), through tsx (no build step): src/worker.ts.
import { register } from 'tsx/esm/api';
register();
await import('../src/worker.ts');

#!/usr/bin/env node
// The worker-only recognition process (no HTTP): the compiled dist/worker.js after `npm run build` (production),
// else the source through tsx.
import { loadEntry } from '@app/shared/launch';

await loadEntry(new URL('..', import.meta.url), 'worker');

#!/usr/bin/env node
// The operator CLI: the compiled code after `npm run build` (production), else the source through tsx. In
// development prefer `npm run operator`, which always runs the source.
import { loadEntry } from '@app/shared/launch';

const cli = await loadEntry(new URL('..', import.meta.url), 'operator/cli');
await cli.runCli();

#!/usr/bin/env node
// The recognition administration command (keys | edo | admin): the compiled code after `npm run build`
// (production), else the source through tsx. In development prefer `npm run recognition-admin`.
import { loadEntry } from '@app/shared/launch';

const cli = await loadEntry(new URL('..', import.meta.url), 'cli/recognition-admin');
await cli.main();

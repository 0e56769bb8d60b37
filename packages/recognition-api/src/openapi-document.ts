import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDb, randomIds, systemClock } from '@app/shared';
import { buildRecognitionApp } from './app.js';
import { MIGRATIONS_DIR } from './db.js';
import { createLocalOcrEngine } from './engine/ocr/index.js';
import { LocalFileStore } from './storage/file-store.js';

/**
 * The service's OpenAPI document (the body of `GET /openapi.json`) without a running service: the app is built on a
 * throwaway in-memory PGlite and a temporary upload folder, asked once, and closed. For the OpenAPI lint
 * (`npm run lint`) and anything else that needs the document offline.
 */
export async function recognitionOpenApiDocument(): Promise<string> {
  const db = await openDb({});
  const dir = mkdtempSync(join(tmpdir(), 'recognition-openapi-'));
  try {
    await migrate(db, MIGRATIONS_DIR);
    const app = await buildRecognitionApp({
      db,
      files: new LocalFileStore(dir),
      localEngine: createLocalOcrEngine(),
      clock: systemClock,
      ids: randomIds,
      allowLoopbackCallbacks: false,
    });
    try {
      return (await app.inject({ method: 'GET', url: '/openapi.json' })).body;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

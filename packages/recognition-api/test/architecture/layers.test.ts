import { join } from 'node:path';
import { importCycles, importSpecifiers, relativeImports, topFolders, unitOf, upwardImports } from '@app/shared/testing';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/architecture.md "Layers of the recognition service", as a check on the imports of src/: a unit
 * (folder, sub-folder or file) imports only from units of a lower (or its own) rank, no import cycle between
 * units, and nothing in src/ imports a fake, a recorder or a crash hook. The few known exceptions are listed below
 * with the reason each stays; the test fails when one is added and when one is fixed (then delete its line).
 */
const SRC = join(import.meta.dirname, '..', '..', 'src');
const RANK: Record<string, number> = {
  // Entries and composition.
  'index.ts': -1,
  '.': 0,
  cli: 0,
  // Features, the upload pipeline first: documents (intake, service, high lane) drives jobs, jobs drive callbacks.
  'admin-web': 1,
  health: 2,
  documents: 2,
  jobs: 3,
  keys: 4,
  callbacks: 4,
  edo: 4,
  'edo/diadoc': 5,
  // The port the Diadoc adapter implements, and the shapes it speaks: below the adapter.
  'edo/edo.port.ts': 6,
  'edo/send-mode.ts': 6,
  'edo/operator-json.ts': 6,
  'edo/edo-connection.repo.ts': 6,
  export: 6,
  // The document record: the type, its repository, its wire schemas and view, under every feature that reads it.
  'documents/documents.types.ts': 7,
  'documents/documents.repo.ts': 7,
  'documents/documents.schemas.ts': 7,
  'documents/document-view.ts': 7,
  'documents/recognize-request.ts': 7,
  formalized: 8,
  // The engine: no HTTP, no database.
  engine: 9,
  // Below everything.
  http: 10,
  storage: 10,
  time: 10,
  'config.ts': 11,
  'db.ts': 11,
};
/** Root files every layer may use (the one error table). */
const SHARED_ROOT_FILES = new Set(['errors.ts']);

/** Known upward imports, each with why it stays (docs/architecture.md, "Known exceptions"). */
const KNOWN_UPWARD: string[] = [];
/** Known cycles between units (the known upward imports left out, so they do not show twice). */
const KNOWN_CYCLES: string[] = [];
/** Known cycles between files. */
const KNOWN_FILE_CYCLES = [...KNOWN_CYCLES];

const edges = () => relativeImports(SRC).filter(([, to]) => !SHARED_ROOT_FILES.has(to));

describe('recognition service layers', () => {
  it('every folder of src/ has a rank', () => {
    expect(topFolders(SRC).filter((f) => RANK[f] === undefined)).toEqual([]);
  });

  it('no import points from a lower layer to a higher one, except the known ones', () => {
    expect(upwardImports(edges(), RANK)).toEqual(KNOWN_UPWARD);
  });

  it('no import cycle between units, nor between files, except the known ones', () => {
    const notKnownUpward = edges().filter(([from, to]) => !KNOWN_UPWARD.includes(`${from} → ${to}`));
    expect(importCycles(notKnownUpward, (f) => unitOf(f, RANK))).toEqual(KNOWN_CYCLES);
    expect(importCycles(edges())).toEqual(KNOWN_FILE_CYCLES);
  });

  it('src/ imports nothing named fake, recording or crash', () => {
    const named = importSpecifiers(SRC).filter((s) => /fake|recording|crash/i.test(s.split(' → ')[1]!));
    expect(named).toEqual([]);
  });
});

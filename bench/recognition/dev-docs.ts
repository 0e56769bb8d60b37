/**
 * The independent development set (`../shared/data/recognition-dev/`, or `RECOGNITION_DEV_SET`) as the in-process
 * benchmarks read it (dev-fields.ts, page-bands.ts, versus-baseline.ts): its documents, one document's pages and
 * truth for a tier, the set's own `compareDocument` (score.mjs, unchanged) and the count of fields it finds wrong.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One compared field of `compareDocument`. */
export interface FieldComparison {
  ok: boolean;
  truth: unknown;
  pred: unknown;
}

/** What the set's `compareDocument` returns for one document. */
export interface DocumentComparison {
  header: Record<string, FieldComparison>;
  items: { number: number; fields: Record<string, FieldComparison> }[];
  itemCount: { ok: boolean };
}

/** A document of the set's `index.json`: its files per tier (`clean`, `scan`, `photo`). */
export interface DevDocument {
  id: string;
  document_type: string;
  send_auto: boolean;
  variants: Record<string, string[]>;
}

export const devDir = resolve(process.env.RECOGNITION_DEV_SET ?? join(import.meta.dirname, '../../../shared/data/recognition-dev'));

export const { compareDocument } = (await import(pathToFileURL(join(devDir, 'score.mjs')).href)) as {
  compareDocument: (truth: unknown, pred: unknown, unscored?: string[]) => DocumentComparison;
};

export const devDocuments = (JSON.parse(readFileSync(join(devDir, 'set/index.json'), 'utf8')) as { documents: DevDocument[] }).documents;

/**
 * A document's pages in `tier`, its truth and its unscored fields, and the request the scorer sends for it:
 * `documentType` `auto` where the set says so, `imageQuality` `photo` for the photo tier and `scan` otherwise.
 */
export function loadDocument(d: DevDocument, tier: string) {
  const file = (name: string) => readFileSync(join(devDir, 'set', d.id, name));
  const meta = JSON.parse(file('meta.json').toString('utf8')) as { unscored?: string[] };
  return {
    images: d.variants[tier].map(file),
    truth: JSON.parse(file('truth.json').toString('utf8')) as unknown,
    unscored: meta.unscored ?? [],
    documentType: d.send_auto ? 'auto' : d.document_type,
    imageQuality: (tier === 'photo' ? 'photo' : 'scan') as 'photo' | 'scan',
  };
}

/** Fields the scorer finds wrong in one comparison: header fields, item fields, and 1 for a wrong item count. */
export const wrongFields = (c: DocumentComparison): number =>
  Object.values(c.header).filter((f) => !f.ok).length +
  c.items.reduce((n, it) => n + Object.values(it.fields).filter((f) => !f.ok).length, 0) +
  (c.itemCount.ok ? 0 : 1);

/** The `p`th percentile (0–100) of `xs`, nearest rank. */
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

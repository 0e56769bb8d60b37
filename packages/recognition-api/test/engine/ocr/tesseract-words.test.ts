import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTesseractWords } from '../../../src/engine/extract/tesseract-words.js';

describe("loadTesseractWords: the word list of Tesseract's rus model", () => {
  it('unpacks the installed list, lower case with ё as е, common forms in and rare forms and OCR garbage out', async () => {
    const words = await loadTesseractWords('rus');
    expect(words).not.toBeNull();
    expect(words!.size).toBeGreaterThan(150_000);
    for (const w of ['крепление', 'кабель', 'елка', 'москва']) expect(words!.has(w), w).toBe(true);
    for (const w of ['Москва', 'ёлка', 'крепленые', 'эсппеаег']) expect(words!.has(w), w).toBe(false);
  }, 60_000);

  it('is null, not an error, without the tools or the language data', async () => {
    expect(await loadTesseractWords('rus', { tesseract: '/nonexistent/tesseract' })).toBeNull();
    expect(await loadTesseractWords('rus', { dawg2wordlist: '/nonexistent/dawg2wordlist' })).toBeNull();
    expect(await loadTesseractWords('xxx')).toBeNull();
  }, 60_000);

  it.each(['combineTessdata', 'dawg2wordlist'] as const)(
    'is null when %s hangs past the configured time limit',
    async (tool) => {
      const hanging = join(await mkdtemp(join(tmpdir(), 'hang-')), tool);
      await writeFile(hanging, '#!/bin/sh\nexec sleep 30\n');
      await chmod(hanging, 0o755);
      const started = Date.now();
      expect(await loadTesseractWords('rus', { [tool]: hanging, timeoutMs: 300 })).toBeNull();
      expect(Date.now() - started).toBeLessThan(10_000);
    },
    60_000,
  );
});

/**
 * Tesseract runs with an address-space limit (`prlimit --as`), so a page whose native memory
 * runs away kills that Tesseract only, not the worker process with the other documents it holds. A stand-in
 * binary prints the limits it was started with.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTesseract } from '../../src/engine/ocr/tesseract.js';

let dir: string;
let fake: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tess-mem-'));
  fake = join(dir, 'tesseract');
  writeFileSync(fake, '#!/bin/sh\ncat > /dev/null\ngrep "Max address space" /proc/self/limits\n', { mode: 0o755 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Tesseract memory limit', () => {
  it('starts Tesseract under the configured address-space limit', async () => {
    const out = await runTesseract(Buffer.from('img'), [], { tesseractPath: fake, memoryMb: 512 });
    expect(out).toMatch(new RegExp(`Max address space\\s+${512 * 1024 * 1024}\\s+${512 * 1024 * 1024}\\s+bytes`));
  });

  it('without a limit configured, none is set', async () => {
    const out = await runTesseract(Buffer.from('img'), [], { tesseractPath: fake });
    expect(out).toMatch(/Max address space\s+unlimited/);
  });
});

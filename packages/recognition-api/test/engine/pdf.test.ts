import { describe, expect, it } from 'vitest';
import { parsePdfInfo } from '../../src/engine/pdf/pdf-info.js';
import { hasTextLayer, parsePdfTextTsv } from '../../src/engine/pdf/pdf-text.js';
import { isPdf } from '../../src/engine/pdf/pdf-pages.js';
import { PopplerError, runPoppler } from '../../src/engine/pdf/poppler.js';

const INFO = `Producer:        LibreOffice 7.4
Pages:           2
Encrypted:       no
Page    1 size: 841.89 x 595.304 pts (A4)
Page    1 rot:  0
Page    2 size: 595.304 x 841.89 pts (A4)
Page    2 rot:  90
File size:       71583 bytes`;

describe('pdfinfo output', () => {
  it('reads page count, encryption and page sizes; a quarter-turned page swaps its sides', () => {
    expect(parsePdfInfo(INFO)).toEqual({
      pages: 2,
      encrypted: false,
      pageSizes: [
        { width: 841.89, height: 595.304 },
        { width: 841.89, height: 595.304 },
      ],
    });
  });

  it('an encrypted file', () => {
    expect(parsePdfInfo('Pages: 1\nEncrypted:       yes (print:yes copy:no change:no addNotes:no algorithm:AES-256)\n').encrypted).toBe(true);
  });
});

const TSV = [
  'level\tpage_num\tpar_num\tblock_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '1\t1\t0\t0\t0\t0\t0.000000\t0.000000\t841.889764\t595.303937\t-1\t###PAGE###',
  '4\t1\t0\t0\t0\t0\t623.597000\t29.476337\t93.370216\t6.874400\t-1\t###LINE###',
  '5\t1\t0\t0\t0\t0\t623.60\t29.48\t45.53\t6.87\t100\tУнифицированная',
  '5\t1\t0\t0\t0\t1\t670.45\t29.48\t16.70\t6.87\t100\tформа',
  '5\t2\t0\t0\t0\t0\t72.00\t36.00\t10.00\t7.20\t100\tИтого',
].join('\n');

describe('pdftotext -tsv words', () => {
  it('level-5 rows become words per page in 300 DPI pixels (points × 300 / 72), confidence 100', () => {
    const pages = parsePdfTextTsv(TSV, 3);
    expect(pages.map((p) => p.length)).toEqual([2, 1, 0]);
    expect(pages[0]![0]).toEqual({ text: 'Унифицированная', conf: 100, left: 2598, top: 123, width: 190, height: 29, line: '1.0.0.0' });
    expect(pages[1]![0]).toMatchObject({ text: 'Итого', left: 300, top: 150, width: 42, height: 30 });
  });

  it('a text layer needs 20 words with letters or digits (a page number or stamp on a scan is not one)', () => {
    const w = (text: string) => ({ text, conf: 100, left: 0, top: 0, width: 10, height: 10, line: '1' });
    expect(hasTextLayer(Array.from({ length: 20 }, (_, i) => w(`слово${i}`)))).toBe(true);
    expect(hasTextLayer([w('Страница'), w('2'), ...Array.from({ length: 30 }, () => w('—'))])).toBe(false);
  });
});

describe('poppler process handling', () => {
  it('recognises the PDF header anywhere in the first 1024 bytes, nothing else', () => {
    expect(isPdf(Buffer.from('%PDF-1.7\n'))).toBe(true);
    expect(isPdf(Buffer.concat([Buffer.alloc(100, 32), Buffer.from('%PDF-1.4')]))).toBe(true);
    expect(isPdf(Buffer.from('\x89PNG\r\n'))).toBe(false);
  });

  it("a non-zero exit is `failed` with the tool's first stderr line", async () => {
    const err = await runPoppler('pdfinfo', ['/nonexistent/file.pdf']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PopplerError);
    expect((err as PopplerError).kind).toBe('failed');
    expect((err as PopplerError).message).toMatch(/^pdfinfo: .*(Couldn't open|No such file)/);
  });

  it('an aborted signal kills nothing and rejects `aborted` before spawning; a missing binary is `unavailable`', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runPoppler('pdfinfo', ['-v'], { signal: ac.signal })).rejects.toMatchObject({ kind: 'aborted' });
    await expect(runPoppler('pdfinfo', ['-v'], { binDir: '/nonexistent' })).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('a process past its time limit is killed and rejects `timeout`', async () => {
    // pdftotext reading a FIFO that never gets data blocks until it is killed.
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { execFileSync } = await import('node:child_process');
    const dir = mkdtempSync('/tmp/pdf-fifo-');
    try {
      execFileSync('mkfifo', [`${dir}/never.pdf`]);
      const t0 = Date.now();
      await expect(runPoppler('pdftotext', [`${dir}/never.pdf`, '-'], { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout' });
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

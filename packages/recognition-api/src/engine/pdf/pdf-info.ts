import { runPoppler, type PopplerCall } from './poppler.js';

/** What `pdfinfo` says about a PDF: page count, encryption, and the size of each page listed (points, 1/72 in). */
export interface PdfInfo {
  pages: number;
  encrypted: boolean;
  /** Sizes of pages 1…min(pages, asked) in PDF points, as rotated for display. */
  pageSizes: { width: number; height: number }[];
}

/**
 * Parses `pdfinfo -f 1 -l N` output: "Pages: 5", "Encrypted: yes (…)", "Page    1 size: 841.89 x 595.304 pts",
 * "Page    1 rot:  90" (a quarter-turned page swaps width and height). Missing fields read as 0 pages / not
 * encrypted / no sizes.
 */
export function parsePdfInfo(text: string): PdfInfo {
  const pages = Number(/^Pages:\s+(\d+)/m.exec(text)?.[1] ?? 0);
  const encrypted = /^Encrypted:\s+yes/m.test(text);
  const sizes = new Map<number, { width: number; height: number }>();
  for (const m of text.matchAll(/^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/gm))
    sizes.set(Number(m[1]), { width: Number(m[2]), height: Number(m[3]) });
  for (const m of text.matchAll(/^Page\s+(\d+)\s+rot:\s+(\d+)/gm)) {
    const s = sizes.get(Number(m[1]));
    if (s && Number(m[2]) % 180 === 90) sizes.set(Number(m[1]), { width: s.height, height: s.width });
  }
  return { pages, encrypted, pageSizes: [...sizes.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s) };
}

/**
 * Runs `pdfinfo -f 1 -l <upTo> <path>` (10 s limit) and parses it.
 * @throws PopplerError `failed` for a broken file or one that needs a password (pdfinfo exits non-zero).
 */
export async function readPdfInfo(path: string, upTo: number, call: PopplerCall = {}): Promise<PdfInfo> {
  const out = await runPoppler('pdfinfo', ['-f', '1', '-l', String(upTo), path], { timeoutMs: 10_000, ...call });
  return parsePdfInfo(out.toString('utf8'));
}

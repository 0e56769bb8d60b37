import { readPdfInfo } from './pdf/pdf-info.js';
import { withTempPdf } from './pdf/pdf-pages.js';
import { PDF_DPI } from './pdf/pdf-text.js';
import { PopplerError } from './pdf/poppler.js';
import { checkDimensions, ImageRejected, MAX_PAGES, type CheckedImage } from './image-check.js';

/**
 * Accepts an uploaded PDF (beyond the spec's image formats: scanners and 1C produce PDFs; docs/recognition.md
 * "PDF uploads"). `pdfinfo` (10 s limit) must read it; then it is refused when it needs a password or is
 * encrypted at all, has no pages or more than {@link MAX_PAGES} (each page counts as one image of the spec's
 * 1–5), or has a page that would be larger than the image limits at 300 DPI (50 MP, 20 000 px a side). Nothing is
 * rendered here; the engine renders or reads the text layer later. Runs in the worker pool like the image check.
 * @returns the PDF as stored (`ext: 'pdf'`), with the first page's size in 300 DPI pixels and `pages`.
 * @throws ImageRejected with a caller-safe reason naming the problem.
 */
export async function checkPdf(buf: Buffer): Promise<CheckedImage> {
  const info = await withTempPdf(buf, (path) => readPdfInfo(path, MAX_PAGES)).catch((err: unknown) => {
    if (!(err instanceof PopplerError)) throw err;
    if (err.kind === 'unavailable') throw err; // poppler-utils missing: a server fault, not the caller's
    if (/password/i.test(err.stderr + err.message)) throw new ImageRejected('PDF is password-protected; send it without a password');
    if (err.kind === 'timeout') throw new ImageRejected('PDF could not be read in time (damaged or too complex)');
    throw new ImageRejected('PDF is damaged or not a PDF (pdfinfo cannot read it)');
  });
  if (info.encrypted) throw new ImageRejected('PDF is encrypted; send it without encryption or restrictions');
  if (info.pages === 0) throw new ImageRejected('PDF has no pages');
  if (info.pages > MAX_PAGES)
    throw new ImageRejected(`PDF has ${info.pages} pages; at most ${MAX_PAGES} pages per request (each page counts as one image)`);
  const px = info.pageSizes.map((s) => ({ width: Math.round((s.width * PDF_DPI) / 72), height: Math.round((s.height * PDF_DPI) / 72) }));
  if (px.length !== info.pages) throw new ImageRejected('PDF is damaged (page sizes cannot be read)');
  for (const [i, p] of px.entries()) {
    try {
      checkDimensions(p.width, p.height);
    } catch (err) {
      const mm = (pts: number) => Math.round((pts * 25.4) / 72);
      const s = info.pageSizes[i];
      if (err instanceof ImageRejected)
        throw new ImageRejected(`PDF page ${i + 1} is ${mm(s.width)}×${mm(s.height)} mm, at 300 DPI ${err.message.replace(/^image is /, '')}`);
      throw err;
    }
    if (p.width < 1 || p.height < 1) throw new ImageRejected(`PDF page ${i + 1} has an empty size`);
  }
  return { format: 'pdf', width: px[0].width, height: px[0].height, bytes: buf, ext: 'pdf', pages: info.pages };
}

import { PDFDocument } from 'pdf-lib';

/** A4 landscape in PDF points (1/72 in). */
const A4_LANDSCAPE: [number, number] = [841.89, 595.28];

/**
 * A "scanned" PDF: each page image (PNG or JPEG, e.g. the `scan` tier's 300 DPI PNGs) placed on an A4 landscape
 * page with nothing else, so the PDF has no text layer, as a scanner's PDF output. Built with pdf-lib.
 * `pageSize` (points) overrides A4 landscape, e.g. for tests of absurd page sizes.
 */
export async function imagesToPdf(images: Buffer[], pageSize: [number, number] = A4_LANDSCAPE): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const img of images) {
    const isPng = img.subarray(0, 4).toString('latin1') === '\x89PNG';
    const embedded = isPng ? await pdf.embedPng(img) : await pdf.embedJpg(img);
    const page = pdf.addPage(pageSize);
    page.drawImage(embedded, { x: 0, y: 0, width: pageSize[0], height: pageSize[1] });
  }
  return Buffer.from(await pdf.save());
}

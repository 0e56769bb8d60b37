import sharp from 'sharp';
import { renderPdfPage, withTempPdf } from '../engine/pdf/pdf-pages.js';

/** Widest preview we send, px: wider than the document page's image column, far smaller than a 300 DPI scan. */
export const PREVIEW_WIDTH = 1400;

/**
 * What a browser can show for a stored page file (docs/admin-panel.md, "Page images"): JPEG, PNG, WebP and BMP as
 * they are; TIFF (no browser shows it) as a PNG of its first frame; PDF as a PNG of its first page (`pdftoppm`),
 * both scaled down to {@link PREVIEW_WIDTH}. `type` is the stored file's content type.
 */
export async function pagePreview(bytes: Buffer, type: string): Promise<{ bytes: Buffer; type: string }> {
  if (type === 'image/tiff') return { bytes: await toPng(sharp(bytes, { pages: 1 })), type: 'image/png' };
  if (type === 'application/pdf') {
    const png = await withTempPdf(bytes, (path) => renderPdfPage(path, 1));
    return { bytes: await toPng(sharp(png)), type: 'image/png' };
  }
  return { bytes, type };
}

const toPng = (img: sharp.Sharp) => img.resize({ width: PREVIEW_WIDTH, withoutEnlargement: true }).png().toBuffer();

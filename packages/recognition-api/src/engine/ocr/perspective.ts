import { loadOpenCv } from '@app/shared/opencv';
import type { GrayImage, Quad } from './page-quad.js';

/** A4 at 300 DPI, px: 297 × 210 mm. */
export const A4_LONG_PX = 3508;
export const A4_SHORT_PX = 2480;
/**
 * Border painted white after the warp, px (1.7 mm): a corner found a pixel outside the paper leaves a sliver of
 * desk along the edge, which the rule finder would take for a table rule. The printed forms keep ≥ 5 mm margins.
 */
export const CLEAN_BORDER_PX = 20;

/**
 * Output size of a flattened sheet: A4 at 300 DPI, landscape (3508 × 2480) when the outline's top and bottom
 * sides are on average longer than its left and right ones, else portrait (2480 × 3508).
 */
export function a4SizeFor(q: Quad): { width: number; height: number } {
  const d = (i: number, j: number) => Math.hypot(q[i][0] - q[j][0], q[i][1] - q[j][1]);
  const landscape = d(0, 1) + d(3, 2) > d(0, 3) + d(1, 2);
  return landscape ? { width: A4_LONG_PX, height: A4_SHORT_PX } : { width: A4_SHORT_PX, height: A4_LONG_PX };
}

/**
 * Warps the sheet outlined by `quad` (TL, TR, BR, BL corners in `img` pixels, see page-quad.ts) to a flat upright
 * rectangle of `size` (default {@link a4SizeFor}: A4 at 300 DPI) with OpenCV's projective transform
 * (getPerspectiveTransform + warpPerspective, bicubic). Pixels mapped from outside `img` and the outer
 * 20 px are white. Returns a new 8-bit grayscale image. Throws only on an OpenCV failure (e.g. a degenerate quad
 * with three collinear corners).
 */
export async function warpToRectangle(img: GrayImage, quad: Quad, size = a4SizeFor(quad)): Promise<GrayImage> {
  const { cv } = await loadOpenCv();
  const { width, height } = size;
  const src = cv.matFromArray(img.height, img.width, cv.CV_8UC1, img.data);
  const from = cv.matFromArray(4, 1, cv.CV_32FC2, quad.flat());
  // Corner pixel centres of the output map to the quad's corners.
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, width - 1, 0, width - 1, height - 1, 0, height - 1]);
  const m = cv.getPerspectiveTransform(from, to);
  const dst = new cv.Mat();
  try {
    cv.warpPerspective(src, dst, m, new cv.Size(width, height), cv.INTER_CUBIC, cv.BORDER_CONSTANT, new cv.Scalar(255));
    const data = new Uint8Array(dst.data);
    for (let y = 0; y < height; y++) {
      const row = y * width;
      if (y < CLEAN_BORDER_PX || y >= height - CLEAN_BORDER_PX) data.fill(255, row, row + width);
      else {
        data.fill(255, row, row + CLEAN_BORDER_PX);
        data.fill(255, row + width - CLEAN_BORDER_PX, row + width);
      }
    }
    return { data, width, height };
  } finally {
    for (const x of [src, from, to, m, dst]) x.delete();
  }
}

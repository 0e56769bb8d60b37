import { loadOpenCv } from '@app/shared/opencv';
import type { GrayImage } from './page-quad.js';

/** Structures narrower than this (px at 300 DPI) stand out in the black-hat: rules and strokes, not cells. */
const MAX_RULE_WIDTH = 15;
/** Darker than the local paper by at least this many levels: a rule, however faint the blur left it. */
const MIN_CONTRAST = 28;

/**
 * Pixels of thin dark vertical structures in a photo's page (8-bit grayscale): OpenCV's black-hat with a
 * horizontal kernel ({@link MAX_RULE_WIDTH} × `scale` px wide, 1 px tall) is each pixel's darkness against the
 * paper left and right of it, thresholded at {@link MIN_CONTRAST} levels. A 1-px column rule of a phone photo,
 * blurred and lightened to 180–220 levels (above a fixed dark threshold) but 40+ levels under its neighbours,
 * is kept; horizontal rules and wide dark areas are not. Returns a mask of the image's size, 255 = candidate.
 * Throws only on an OpenCV failure.
 */
export async function ruleMask(img: GrayImage, scale = 1): Promise<Uint8Array> {
  const { cv } = await loadOpenCv();
  const src = cv.matFromArray(img.height, img.width, cv.CV_8UC1, img.data);
  const kernel = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(Math.max(3, Math.round(MAX_RULE_WIDTH * scale)) | 1, 1));
  const hat = new cv.Mat();
  try {
    cv.morphologyEx(src, hat, cv.MORPH_BLACKHAT, kernel);
    cv.threshold(hat, hat, MIN_CONTRAST, 255, cv.THRESH_BINARY);
    return new Uint8Array(hat.data);
  } finally {
    for (const m of [src, kernel, hat]) m.delete();
  }
}

import { loadOpenCv } from '@app/shared/opencv';
import type { GrayImage } from './page-quad.js';

/** Grid of the discrete inverse transform the kernel is sampled from: far wider than the kernel, so it does not wrap. */
const GRID = 64;

/**
 * The spatial kernel (`size` × `size`, odd, row-major, sums to 1) of a Wiener deconvolution of a Gaussian blur of
 * `sigma` px: the inverse transform of G / (G² + `noise`), G the Gaussian's transfer function exp(−2π²σ²f²). A small
 * `noise` restores more of the detail the blur took and amplifies more of the sensor noise and JPEG artefacts.
 * Pure; sampled on a {@link GRID}² grid and cut to `size`, then scaled so a flat area keeps its grey.
 * @throws RangeError when `size` is even or not below the grid.
 */
export function wienerKernel(sigma: number, noise: number, size: number): Float32Array {
  if (size % 2 === 0 || size >= GRID) throw new RangeError(`kernel size ${size} must be odd and below ${GRID}`);
  const response = new Float64Array(GRID * GRID);
  for (let v = 0; v < GRID; v++) {
    for (let u = 0; u < GRID; u++) {
      const fu = (u <= GRID / 2 ? u : u - GRID) / GRID;
      const fv = (v <= GRID / 2 ? v : v - GRID) / GRID;
      const g = Math.exp(-2 * Math.PI ** 2 * sigma ** 2 * (fu * fu + fv * fv));
      response[v * GRID + u] = g / (g * g + noise);
    }
  }
  // The response is real and even, so its inverse transform is a sum of cosines; the kernel is small enough that
  // the direct sum (size² × GRID² terms, ~10⁶ for 15 × 15) costs nothing next to the image filter.
  const half = (size - 1) / 2;
  const kernel = new Float32Array(size * size);
  let sum = 0;
  for (let y = -half; y <= half; y++) {
    for (let x = -half; x <= half; x++) {
      let s = 0;
      for (let v = 0; v < GRID; v++) {
        for (let u = 0; u < GRID; u++) s += response[v * GRID + u] * Math.cos((2 * Math.PI * (u * x + v * y)) / GRID);
      }
      kernel[(y + half) * size + (x + half)] = s / (GRID * GRID);
      sum += s / (GRID * GRID);
    }
  }
  for (let i = 0; i < kernel.length; i++) kernel[i] /= sum;
  return kernel;
}

/**
 * Blur of a flattened phone photo's page, px at 300 DPI: the set's photos are 150–170 DPI with defocus blur, which
 * the warp to 300 DPI widens to about this much (docs/recognition-photo.md "Session 2026-11-29 (2)").
 */
export const PHOTO_BLUR_SIGMA = 1.5;
/**
 * Blur of a scan enlarged to 300 DPI (preprocess.ts: pages under 2 600 px on the long side), px. On the set's 200 DPI
 * scans 1.0, 1.25 and 1.5 all read better than none and 2.0 far worse; 1.25 keeps a margin from that edge
 * (docs/recognition-photo.md "Session 2026-11-29 (2)").
 */
export const SCAN_BLUR_SIGMA = 1.25;
/** Noise-to-signal of the photo's deconvolution: lower sharpened more and read worse on JPEG q60 noise. */
export const PHOTO_DEBLUR_NOISE = 0.1;
const KERNEL_SIZE = 15;

/** Kernels already computed, by `sigma/noise`: a page needs one of two or three, and each costs ~10⁶ cosines. */
const kernels = new Map<string, number[]>();

/** The {@link KERNEL_SIZE} Wiener kernel for `sigma` and `noise` as OpenCV takes it, computed once per process. */
function kernelFor(sigma: number, noise: number): number[] {
  const key = `${sigma}/${noise}`;
  let kernel = kernels.get(key);
  if (!kernel) {
    kernel = Array.from(wienerKernel(sigma, noise, KERNEL_SIZE));
    kernels.set(key, kernel);
  }
  return kernel;
}

/**
 * The page (8-bit grayscale) deconvolved with {@link wienerKernel} through OpenCV's `filter2D` (values saturated to
 * 0–255, the border replicated): the strokes a phone's defocus spread over neighbouring pixels are drawn back
 * together before Tesseract reads them. Returns a new image of the same size; throws only on an OpenCV failure.
 */
export async function deblur(img: GrayImage, sigma = PHOTO_BLUR_SIGMA, noise = PHOTO_DEBLUR_NOISE): Promise<GrayImage> {
  const { cv } = await loadOpenCv();
  const src = cv.matFromArray(img.height, img.width, cv.CV_8UC1, img.data);
  const kernel = cv.matFromArray(KERNEL_SIZE, KERNEL_SIZE, cv.CV_32FC1, kernelFor(sigma, noise));
  const out = new cv.Mat();
  try {
    cv.filter2D(src, out, cv.CV_8U, kernel, new cv.Point(-1, -1), 0, cv.BORDER_REPLICATE);
    return { data: Buffer.from(out.data), width: img.width, height: img.height };
  } finally {
    for (const m of [src, kernel, out]) m.delete();
  }
}

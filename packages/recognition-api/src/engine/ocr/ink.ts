/**
 * Grayscale for OCR that drops blue and violet ink (stamps, signatures) laid over the printed text. Luminance would
 * keep a stamp's ring and letters as mid-grey strokes crossing the digits under them, which Tesseract's threshold
 * turns into black; the printed text is black toner, dark in all three channels, while blue/violet ink is bright in
 * its blue channel. A pixel whose blue exceeds both red and green by more than {@link BLUE_MIN} levels is taken
 * towards its brightest channel (fully from {@link BLUE_FULL} levels), so the ink fades to paper and black text
 * under it (dark in every channel) stays dark. Neutral and warm pixels (paper, desk, red-brown shadows) keep their
 * luminance.
 */
const BLUE_MIN = 12;
const BLUE_FULL = 48;

/**
 * Interleaved 8-bit pixels (`channels` 3 or 4, RGB first, row-major) → one 8-bit channel, `width × height` bytes.
 * Throws a RangeError when the buffer is shorter than `pixels × channels`.
 */
export function inkAwareGray(px: Uint8Array, pixels: number, channels: number): Uint8Array {
  if (channels < 3 || px.length < pixels * channels) throw new RangeError(`need ${pixels} pixels of ≥ 3 channels`);
  const out = new Uint8Array(pixels);
  for (let i = 0, j = 0; i < pixels; i++, j += channels) {
    const r = px[j];
    const g = px[j + 1];
    const b = px[j + 2];
    const lum = 0.299 * r + 0.587 * g + 0.114 * b;
    const blue = b - Math.max(r, g);
    if (blue <= BLUE_MIN) {
      out[i] = Math.round(lum);
      continue;
    }
    const t = Math.min(1, (blue - BLUE_MIN) / (BLUE_FULL - BLUE_MIN));
    out[i] = Math.round(lum + (b - lum) * t);
  }
  return out;
}

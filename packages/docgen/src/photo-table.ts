import sharp from 'sharp';
import { loadOpenCv } from '@app/shared/opencv';
import type { Rng } from './random.js';

/** Corners of the sheet in the output photo, px: top-left, top-right, bottom-right, bottom-left of the page. */
export type Quad = [[number, number], [number, number], [number, number], [number, number]];

/** Geometry of one generated photo: frame size and where the sheet's corners landed (for tests). */
export interface PhotoGeometry {
  width: number;
  height: number;
  corners: Quad;
}

/**
 * How hard the phone photo is (docs/decisions.md "Hard tiers in docgen"). `NORMAL` is the `photo-table` tier as it was (same draws, same seeds);
 * `STRONG` is the `photo-phone` tier: a hand-held phone, tilt ±6°, keystone up to 9 % of the sheet, the sheet at
 * 150–170 DPI, darker uneven light, motion blur of 3–5 px, JPEG quality 60–68.
 */
export interface PhotoStrength {
  tilt: number;
  keystone: number;
  /** Sheet resolution in DPI (long side 297 mm), or null for the `photo-table` area rule. */
  dpi: [number, number] | null;
  edgeLight: [number, number];
  motionBlur: [number, number] | null;
  quality: [number, number];
}
export const NORMAL: PhotoStrength = { tilt: 4, keystone: 0.04, dpi: null, edgeLight: [0.7, 0.85], motionBlur: null, quality: [76, 84] };
export const STRONG: PhotoStrength = { tilt: 6, keystone: 0.09, dpi: [150, 170], edgeLight: [0.5, 0.7], motionBlur: [3, 5], quality: [60, 68] };

/**
 * Where the sheet lands: a `sw`×`sh` sheet centred near the middle of a `width`×`height` frame, rotated by
 * ±4°, each corner then moved independently by up to 4 % of the sheet size (keystone: a phone held not quite
 * parallel to the table), kept at least 3 % of the frame away from its edges.
 */
export function placeSheet(width: number, height: number, sw: number, sh: number, rng: Rng, strength: PhotoStrength = NORMAL): Quad {
  const a = (rng.real(-strength.tilt, strength.tilt) * Math.PI) / 180;
  const cx = width / 2 + rng.real(-0.04, 0.04) * width;
  const cy = height / 2 + rng.real(-0.04, 0.04) * height;
  const j = strength.keystone * Math.min(sw, sh);
  const m = 0.03 * Math.min(width, height);
  const base: [number, number][] = [
    [-sw / 2, -sh / 2],
    [sw / 2, -sh / 2],
    [sw / 2, sh / 2],
    [-sw / 2, sh / 2],
  ];
  return base.map(([x, y]) => {
    const px = cx + x * Math.cos(a) - y * Math.sin(a) + rng.real(-j, j);
    const py = cy + x * Math.sin(a) + y * Math.cos(a) + rng.real(-j, j);
    return [Math.min(width - m, Math.max(m, px)), Math.min(height - m, Math.max(m, py))];
  }) as Quad;
}

/** A desk: dark wood-like grain (stretched fractal noise) or a plain dark surface with a gradient, as SVG. */
function deskSvg(w: number, h: number, rng: Rng): string {
  const wood = rng.chance(0.6);
  const [r, g, b] = wood ? [rng.int(70, 110), rng.int(45, 70), rng.int(25, 45)] : [rng.int(40, 90), rng.int(40, 90), rng.int(45, 95)];
  const grain = wood
    ? `<filter id="n"><feTurbulence type="fractalNoise" baseFrequency="${rng.real(0.002, 0.004).toFixed(4)} ${rng.real(0.04, 0.08).toFixed(3)}" numOctaves="3" seed="${rng.int(1, 999)}"/>` +
      `<feColorMatrix type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 0.55 0"/></filter><rect width="100%" height="100%" filter="url(#n)"/>`
    : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="d" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="rgb(${r},${g},${b})"/><stop offset="1" stop-color="rgb(${Math.round(r * 0.7)},${Math.round(g * 0.7)},${Math.round(b * 0.7)})"/>` +
    `</linearGradient></defs><rect width="100%" height="100%" fill="url(#d)"/>${grain}</svg>`
  );
}

/** Light falling unevenly: a radial gradient from a random point, plus a soft shadow band (a hand, the phone). */
function lightSvg(w: number, h: number, rng: Rng, edgeLight: [number, number]): string {
  const cx = Math.round(rng.real(0, 1) * w);
  const cy = Math.round(rng.real(0, 1) * h);
  const edge = Math.round(255 * rng.real(edgeLight[0], edgeLight[1]));
  const sx = Math.round(rng.real(0, 1) * w);
  const shade = rng.real(0.15, 0.3).toFixed(2);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>` +
    `<radialGradient id="g" cx="${cx}" cy="${cy}" r="${Math.max(w, h)}" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#fffdf6"/>` +
    `<stop offset="1" stop-color="rgb(${edge},${edge - 4},${edge - 12})"/></radialGradient>` +
    `<filter id="b"><feGaussianBlur stdDeviation="${Math.round(w / 12)}"/></filter></defs><rect width="100%" height="100%" fill="url(#g)"/>` +
    `<ellipse cx="${sx}" cy="${rng.chance(0.5) ? 0 : h}" rx="${Math.round(w / 5)}" ry="${Math.round(h / 3)}" fill="black" fill-opacity="${shade}" filter="url(#b)"/></svg>`
  );
}

/**
 * A phone photo of the sheet lying on a table, from a clean 300 DPI page render (PNG, any size): a 4:3 frame
 * 1900–2100 px wide, the sheet covering 55–85 % of the frame's area, rotated ±4° with a random keystone
 * (projective warp with OpenCV), on a dark desk texture, unevenly lit with a soft shadow, slightly blurred,
 * with sensor noise, JPEG quality 76–84. All parameters come from `rng`; the document data is untouched.
 */
export async function photoOnTable(png: Buffer, rng: Rng, strength: PhotoStrength = NORMAL): Promise<{ jpeg: Buffer; geometry: PhotoGeometry }> {
  const meta = await sharp(png).metadata();
  const landscape = meta.width! >= meta.height!;
  const ratio = Math.max(meta.width!, meta.height!) / Math.min(meta.width!, meta.height!);
  let W: number;
  let long: number;
  if (strength.dpi) {
    // The sheet's long side (297 mm) at the drawn DPI; the frame leaves 8–20 % around it.
    long = (rng.real(strength.dpi[0], strength.dpi[1]) * 297) / 25.4;
    W = Math.round(long * rng.real(1.08, 1.2));
  } else {
    W = rng.int(1900, 2100);
    // Sheet size from the covered area (before keystone): sw * sh = fill * W * H.
    const fill = rng.real(0.55, 0.85);
    long = Math.min(0.94 * W, Math.sqrt(fill * W * Math.round((W * 3) / 4) * ratio));
  }
  const H = Math.round((W * 3) / 4);
  const [sw, sh] = landscape ? [long, long / ratio] : [long / ratio, long];
  const corners = placeSheet(W, H, sw, sh, rng, strength);
  // The page is reduced with sharp first (proper antialiasing), then warped at that scale.
  const sheet = await sharp(png)
    .resize({ width: Math.round(sw * 1.05) })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const warped = await warp(sheet.data, sheet.info.width, sheet.info.height, corners, W, H);
  const light = Buffer.from(lightSvg(W, H, rng, strength.edgeLight));
  const scene = await sharp(Buffer.from(deskSvg(W, H, rng)))
    .composite([{ input: warped, raw: { width: W, height: H, channels: 4 } }])
    .png()
    .toBuffer();
  let shot = sharp(scene)
    .composite([{ input: light, blend: 'multiply' }])
    .blur(rng.real(0.5, 0.9));
  if (strength.motionBlur) {
    // Motion blur: the frame smeared along one direction (a horizontal or vertical line kernel of 3–5 px).
    // sharp wants a square kernel of odd size: n × n with only the centre row (or column) set.
    const n = rng.int(strength.motionBlur[0], strength.motionBlur[1]) | 1;
    const horizontal = rng.chance(0.6);
    const kernel = Array.from({ length: n * n }, (_, i) => ((horizontal ? Math.floor(i / n) : i % n) === n >> 1 ? 1 / n : 0));
    shot = sharp(await shot.png().toBuffer()).convolve({ width: n, height: n, kernel });
  }
  const lit = await shot.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const noise = rng.real(3, 6);
  for (let i = 0; i < lit.data.length; i++)
    lit.data[i] = Math.max(0, Math.min(255, lit.data[i] + (rng.next() + rng.next() + rng.next() - 1.5) * noise));
  const jpeg = await sharp(lit.data, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: rng.int(strength.quality[0], strength.quality[1]) })
    .toBuffer();
  return { jpeg, geometry: { width: W, height: H, corners } };
}

/** Projective warp of an RGBA sheet onto `corners` of a transparent W×H canvas (OpenCV warpPerspective, bilinear). */
async function warp(rgba: Buffer, w: number, h: number, corners: Quad, W: number, H: number): Promise<Buffer> {
  const { cv } = await loadOpenCv();
  const src = cv.matFromArray(h, w, cv.CV_8UC4, rgba);
  const from = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, w, 0, w, h, 0, h]);
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, corners.flat());
  const m = cv.getPerspectiveTransform(from, to);
  const dst = new cv.Mat();
  try {
    cv.warpPerspective(src, dst, m, new cv.Size(W, H), cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
    return Buffer.from(dst.data);
  } finally {
    for (const x of [src, from, to, m, dst]) x.delete();
  }
}

import { loadOpenCv, type OpenCv } from '@app/shared/opencv';

/** A point in image pixels, `[x, y]`, origin top-left. */
export type Point = [number, number];
/** A sheet outline: top-left, top-right, bottom-right, bottom-left corners of the page, image pixels. */
export type Quad = [Point, Point, Point, Point];
/** An 8-bit single-channel image, row-major, `data.length === width * height`. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The outline is searched on a copy reduced to this long side: enough for ±1–2 px corners on a 2000 px photo. */
const SEARCH_LONG_SIDE = 1000;
/** A sheet covering more than this share of the frame is not "a sheet on a table" (a scan, a close-up photo). */
const MAX_AREA = 0.92;
/** ...and one covering less is too small to read or is not the page. */
const MIN_AREA = 0.15;

/**
 * Cheap test whether a page image looks like a photo of a sheet on a darker background (so the outline search is
 * worth it even when the client said `scan`): over a ring of the outer 4 % of a small grayscale copy, the share
 * of pixels darker than 60 % of the paper tone (the image's 95th percentile) is above one half. Scans and
 * screenshots have white paper margins there; a sheet on a desk has desk there. Never throws.
 */
export function looksLikeSheetOnBackground(img: GrayImage): boolean {
  const { data, width, height } = img;
  const hist = new Array<number>(256).fill(0);
  for (const v of data) hist[v]++;
  let acc = 0;
  let paper = 255;
  for (let v = 0; v < 256; v++) {
    acc += hist[v];
    if (acc >= 0.95 * data.length) {
      paper = v;
      break;
    }
  }
  const ring = Math.max(1, Math.round(0.04 * Math.min(width, height)));
  let dark = 0;
  let n = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= ring && x < width - ring && y >= ring && y < height - ring) continue;
      n++;
      if (data[y * width + x] < 0.6 * paper) dark++;
    }
  }
  return dark > 0.5 * n;
}

/**
 * Finds the outline of a bright sheet lying on a darker background. A blurred copy reduced to 1000 px is split
 * into sheet and desk, first by each pixel against the mean of a window a third of the image wide (a dim corner of
 * the sheet under a phone's uneven light is still brighter than the desk beside it), then, when that gives no
 * plausible outline, by one Otsu level. Of the split: the largest outer contour, its convex hull simplified to 4
 * corners, each side then re-fitted as a straight line through the contour points along it (so rounded or
 * shadowed corners do not pull the corners) and the corners taken as the intersections. On the development set's
 * 16 photos the local split put every corner within 3.1 px of where the sheet was placed (Otsu: 7.3 px, and
 * no outline on 3 photos with a dim corner); docs/recognition-photo.md. Returns corners in `img` pixels (sub-pixel),
 * or `null` when there is no plausible sheet: no 4-corner outline, the blob is not quad-shaped, it covers less than
 * 15 % or more than 92 % of the frame, or two or more of its corners sit on the frame edge (a page that fills the
 * frame: a scan, or the existing `photo` look with only its rotation corners showing). Throws only on an OpenCV
 * failure.
 */
export async function findPageQuad(img: GrayImage): Promise<Quad | null> {
  const { cv } = await loadOpenCv();
  for (const split of [localSplit, otsuSplit]) {
    const q = quadBy(cv, img, split);
    if (q) return q;
  }
  return null;
}

type Keep = <T extends { delete(): void }>(m: T) => T;
/** Writes into `bin` the mask of the blurred reduced image `small`: sheet 255, background 0. */
type Split = (cv: OpenCv, small: OpenCv, bin: OpenCv) => void;

/** One global level (Otsu): the sheet is brighter than every part of the desk. */
const otsuSplit: Split = (cv, small, bin) => {
  cv.threshold(small, bin, 0, 255, cv.THRESH_BINARY + cv.THRESH_OTSU);
};

/**
 * Each pixel against the mean of a window a third of the image wide (OpenCV adaptive mean threshold): the phone's
 * light falls on desk and sheet alike, so a dim corner of the sheet can be darker than a lit part of the desk (no
 * global level separates them) yet stays brighter than the desk beside it.
 */
const localSplit: Split = (cv, small, bin) => {
  const block = Math.round(Math.min(small.cols, small.rows) / 3) | 1;
  cv.adaptiveThreshold(small, bin, 255, cv.ADAPTIVE_THRESH_MEAN_C, cv.THRESH_BINARY, block, 0);
};

/** The sheet's outline in `img` pixels with one way of splitting sheet from desk, or null (see {@link findPageQuad}). */
function quadBy(cv: OpenCv, img: GrayImage, split: Split): Quad | null {
  const scale = Math.min(1, SEARCH_LONG_SIDE / Math.max(img.width, img.height));
  const w = Math.round(img.width * scale);
  const h = Math.round(img.height * scale);
  const mats: { delete(): void }[] = [];
  const keep: Keep = (m) => {
    mats.push(m);
    return m;
  };
  try {
    const src = keep(cv.matFromArray(img.height, img.width, cv.CV_8UC1, img.data));
    const small = keep(new cv.Mat());
    cv.resize(src, small, new cv.Size(w, h), 0, 0, cv.INTER_AREA);
    cv.GaussianBlur(small, small, new cv.Size(5, 5), 0);
    const bin = keep(new cv.Mat());
    split(cv, small, bin);
    // Opening removes bright specks and thin highlights of a desk's grain that would otherwise touch the sheet.
    const kernel = keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(5, 5)));
    cv.morphologyEx(bin, bin, cv.MORPH_OPEN, kernel);
    const contours = keep(new cv.MatVector());
    const hierarchy = keep(new cv.Mat());
    cv.findContours(bin, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_NONE);
    let best = -1;
    let bestArea = 0;
    for (let i = 0; i < contours.size(); i++) {
      const c = contours.get(i);
      const a = cv.contourArea(c);
      c.delete();
      if (a > bestArea) [best, bestArea] = [i, a];
    }
    if (best < 0 || bestArea < MIN_AREA * w * h || bestArea > MAX_AREA * w * h) return null;
    const contour = keep(contours.get(best));
    const corners = fourCorners(cv, contour, keep);
    if (!corners) return null;
    const quadArea = polygonArea(corners);
    if (bestArea < 0.9 * quadArea) return null;
    const edge = 0.01 * Math.min(w, h);
    if (corners.filter(([x, y]) => x < edge || y < edge || x > w - 1 - edge || y > h - 1 - edge).length >= 2) return null;
    const fitted = refineCorners(cv, contour, corners, keep);
    // A re-fit that folded the outline (a side fitted through the wrong points) is not used.
    const refined = fitted && isProperQuad(fitted) && Math.abs(polygonArea(fitted) / quadArea - 1) < 0.2 ? fitted : corners;
    // Pixel centres: small-image pixel i covers source pixels [i/scale, (i+1)/scale).
    return refined.map(([x, y]) => [(x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5]) as Quad;
  } finally {
    for (const m of mats) m.delete();
  }
}

/** Convex hull of the contour simplified (growing tolerance) until it has 4 vertices, ordered TL, TR, BR, BL. */
function fourCorners(cv: OpenCv, contour: OpenCv, keep: <T extends { delete(): void }>(m: T) => T): Quad | null {
  const hull = keep(new cv.Mat());
  cv.convexHull(contour, hull, false, true);
  const perimeter = cv.arcLength(hull, true);
  for (let eps = 0.01; eps <= 0.1; eps += 0.01) {
    const approx = keep(new cv.Mat());
    cv.approxPolyDP(hull, approx, eps * perimeter, true);
    if (approx.rows < 4) return null;
    if (approx.rows === 4) {
      const pts: Point[] = [];
      for (let i = 0; i < 4; i++) pts.push([approx.data32S[2 * i], approx.data32S[2 * i + 1]]);
      // A blob turned near 45° (or a triangle-like one) can give one point two roles in orderCorners; the warp
      // of such a degenerate "quad" is blank paper, so it is no outline at all.
      const q = orderCorners(pts);
      return isProperQuad(q) ? q : null;
    }
  }
  return null;
}

/**
 * Orders 4 corners TL, TR, BR, BL: smallest and largest x + y are TL and BR, smallest and largest y − x are TR
 * and BL. Holds for sheets turned by less than 45°; a page on its side is turned later by OSD.
 */
export function orderCorners(pts: Point[]): Quad {
  const by = (f: (p: Point) => number, max: boolean) => pts.reduce((a, b) => (f(b) > f(a) === max ? b : a));
  const sum = (p: Point) => p[0] + p[1];
  const diff = (p: Point) => p[1] - p[0];
  return [by(sum, false), by(diff, false), by(sum, true), by(diff, true)];
}

/** Re-fits each side as a line (cv.fitLine) through contour points along its middle 80 %; null if a fit fails. */
function refineCorners(cv: OpenCv, contour: OpenCv, q: Quad, keep: <T extends { delete(): void }>(m: T) => T): Quad | null {
  const n = contour.rows;
  const lines: [number, number, number, number][] = [];
  for (let s = 0; s < 4; s++) {
    const [a, b] = [q[s], q[(s + 1) % 4]];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const [ux, uy] = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    const pts: number[] = [];
    for (let i = 0; i < n; i++) {
      const [x, y] = [contour.data32S[2 * i], contour.data32S[2 * i + 1]];
      const t = (x - a[0]) * ux + (y - a[1]) * uy;
      const d = Math.abs(-(x - a[0]) * uy + (y - a[1]) * ux);
      if (t > 0.1 * len && t < 0.9 * len && d < 0.02 * len) pts.push(x, y);
    }
    if (pts.length < 20) return null;
    const m = keep(cv.matFromArray(pts.length / 2, 1, cv.CV_32FC2, pts));
    const line = keep(new cv.Mat());
    cv.fitLine(m, line, cv.DIST_HUBER, 0, 0.01, 0.01);
    lines.push([line.data32F[0], line.data32F[1], line.data32F[2], line.data32F[3]]);
  }
  const out: Point[] = [];
  for (let s = 0; s < 4; s++) {
    const p = intersect(lines[(s + 3) % 4], lines[s]);
    if (!p) return null;
    out.push(p);
  }
  return out as Quad;
}

/** Intersection of two lines given as (direction vx, vy, point x0, y0); null when (nearly) parallel. */
function intersect([vx1, vy1, x1, y1]: number[], [vx2, vy2, x2, y2]: number[]): Point | null {
  const den = vx1 * vy2 - vy1 * vx2;
  if (Math.abs(den) < 1e-6) return null;
  const t = ((x2 - x1) * vy2 - (y2 - y1) * vx2) / den;
  return [x1 + t * vx1, y1 + t * vy1];
}

/**
 * True when the four corners (TL, TR, BR, BL) are distinct and form a convex quadrilateral turning one way (no
 * repeated corner, no bow-tie): the only shapes a sheet's outline can have, and the only ones a warp flattens.
 */
export function isProperQuad(q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [q[i], q[(i + 1) % 4], q[(i + 2) % 4]];
    if (Math.hypot(b[0] - a[0], b[1] - a[1]) < 1) return false;
    const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (cross === 0 || (sign !== 0 && Math.sign(cross) !== sign)) return false;
    sign = Math.sign(cross);
  }
  return true;
}

/** Shoelace area of a polygon, px². */
function polygonArea(pts: Point[]): number {
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x1, y1] = pts[i];
    const [x2, y2] = pts[(i + 1) % pts.length];
    a += x1 * y2 - x2 * y1;
  }
  return Math.abs(a) / 2;
}

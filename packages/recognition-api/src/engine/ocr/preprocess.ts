import sharp from 'sharp';
import { deblur, PHOTO_BLUR_SIGMA, SCAN_BLUR_SIGMA } from './deblur.js';
import { checkBmp, checkDimensions, ImageRejected, isBmp, MAX_IMAGE_PIXELS } from '../image-check.js';
import { RecognitionFailedError, type ImageQuality } from '../engine.port.js';
import type { VerticalRule } from '../extract/words.js';
import { inkAwareGray } from './ink.js';
import { evenLight, paperLight } from './light.js';
import { findPageQuad, looksLikeSheetOnBackground, type GrayImage } from './page-quad.js';
import { a4SizeFor, CLEAN_BORDER_PX, warpToRectangle } from './perspective.js';
import { photoBlurSigma, ruleSpread } from './rule-blur.js';
import { ruleMask } from './rule-mask.js';
import { removeRules } from './rules.js';

/** A page ready for Tesseract: 8-bit grayscale PNG at roughly 300 DPI. */
export interface PreparedPage {
  png: Buffer;
  /** The normalised page before rule erasure, kept for rotations. */
  source: sharp.Sharp;
  /**
   * Photos: the page as the rules are found in it (the mean-paper light correction), when it differs from
   * `source`; rotated with it.
   */
  ruleSource?: sharp.Sharp;
  /** Vertical table rules found (and erased) in the image. */
  rules: VerticalRule[];
  width: number;
  height: number;
  /** The sheet was found on a background in a photo and warped flat (page-quad.ts, perspective.ts). */
  flattened: boolean;
  /**
   * Pixels of this image per pixel of a 300 DPI page (1, or {@link PHOTO_SCALE} for a flattened photo). Word boxes
   * read from `png` are divided by it (page-ocr.ts) so extraction always sees 300 DPI page pixels.
   */
  scale: number;
  /** Read as a phone photo: rules are found by local contrast (rule-mask.ts), not by a fixed dark level. */
  photo: boolean;
  /**
   * The Gaussian σ (px at 300 DPI) the page Tesseract reads was deconvolved for (deblur.ts; rule-blur.ts for a
   * flattened photo); null when it was not (only photos and scans enlarged to 300 DPI are).
   */
  deblurSigma: number | null;
}

/**
 * Long side of an A4 sheet at 300 DPI (3508 px). Smaller images (screenshots, downscaled photos) are upscaled
 * towards it, because Tesseract's models are trained on ~30 px text lines; below ~2400 px an A4 page's 8-pt
 * text is too small to read reliably.
 */
export const TARGET_LONG_SIDE = 3508;
const UPSCALE_BELOW = 2600;
/**
 * A flattened photo is warped to A4 at 300 × this DPI. The forms' 7–8.5 pt type at a 0.8–0.96 print scale has
 * capitals of 18–23 px at 300 DPI, under the 25–30 px Tesseract is said to read best, but warping to 375 DPI
 * (1.25) read the dev set's photos worse and 1.5× slower (docs/recognition-engine.md "Phone photos, 2026-11-25"):
 * the photos hold 150–170 DPI of detail, and enlarging adds none. Kept as a knob; word boxes are mapped back.
 */
export const PHOTO_SCALE = 1;

/**
 * Decodes and normalises one uploaded page with sharp: EXIF orientation applied, grayscale, reduced on the fly to
 * at most {@link TARGET_LONG_SIDE} px on the long side when larger (so memory and the pixel loops are bounded),
 * upscaled to ~300 DPI when small (Lanczos), contrast stretched; photos get a flat-field correction that evens out phone lighting
 * before Tesseract's global threshold. A photo of a sheet lying on a table (any `photo`, or any page whose border
 * is mostly dark background) is searched for the sheet's outline; when one is found the sheet is warped to a flat
 * A4 at 300 DPI and flat-field corrected instead (`flattened: true`). A photo's page is then deconvolved
 * (deblur.ts; a flattened sheet's for the blur its printed rules show, rule-blur.ts), and so is a `scan` enlarged to
 * 300 DPI, unless `opts.deblur` is false. BMP is decoded through the upload check (libvips has no BMP loader).
 * @throws RecognitionFailedError `undecodable_image`.
 */
export async function preparePage(input: Buffer, quality: ImageQuality, opts: { deblur?: boolean } = {}): Promise<PreparedPage> {
  // Deconvolution (deblur.ts) where it applies: photos, and scans enlarged to 300 DPI; off for the second reading.
  const deblurAllowed = opts.deblur ?? true;
  try {
    const bytes = isBmp(input) ? (await checkBmp(input)).bytes : input;
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    checkDimensions(meta.width ?? 0, meta.height ?? 0);
    // Downscale before anything else: nothing after this line (the JS pixel loops of flattenLight and
    // removeRules included) ever sees more than TARGET_LONG_SIDE² pixels, whatever was uploaded.
    let img = sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true })
      .rotate()
      .resize({ width: TARGET_LONG_SIDE, height: TARGET_LONG_SIDE, fit: 'inside', withoutEnlargement: true });
    const oriented = await grayWithoutInk(img, meta.channels ?? 1);
    const long = Math.max(oriented.info.width, oriented.info.height);
    const raw = { raw: { width: oriented.info.width, height: oriented.info.height, channels: oriented.info.channels } };
    const sheet = await flattenSheet(oriented.data, raw.raw, quality);
    // Text from the brightest-block paper estimate, rules from the mean one: see `finish`.
    if (sheet) {
      // Deconvolved for the blur the sheet's printed rules show, never less than a typical photo's.
      const sigma = deblurAllowed ? photoBlurSigma(ruleSpread(sheet)) : null;
      // The two corrections are independent: one's libvips resizes run on other cores while the other's loops run here.
      const [text, ruleLight] = await Promise.all([
        paperLight(sheet, CLEAN_BORDER_PX).then((light) => (sigma === null ? light : sharpened(light, sigma))),
        evenLight(sheet),
      ]);
      return await finish(text, { flattened: true, scale: PHOTO_SCALE, photo: true, deblurSigma: sigma }, ruleLight);
    }
    img = sharp(oriented.data, raw).grayscale();
    if (long < UPSCALE_BELOW) {
      const f = Math.min(3, TARGET_LONG_SIDE / long);
      // Enlarged once into memory: `normalise` below reads its input twice (its percentiles, then the stretch), and
      // would otherwise enlarge the page twice (≈ 150 ms of a 200 DPI scan's preparation).
      const enlarged = await img
        .resize({ width: Math.round(oriented.info.width * f), kernel: 'lanczos3' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      img = sharp(enlarged.data, { raw: { width: enlarged.info.width, height: enlarged.info.height, channels: enlarged.info.channels } });
    }
    // A scan enlarged to 300 DPI is blurred by the enlargement and its scanner's optics alike: deconvolved too.
    const deblurred = deblurAllowed && (quality === 'photo' || (quality === 'scan' && long < UPSCALE_BELOW));
    img = quality === 'photo' ? await flattenLight(img) : img.normalise();
    const sigma = deblurred ? (quality === 'photo' ? PHOTO_BLUR_SIGMA : SCAN_BLUR_SIGMA) : null;
    img = sigma === null ? img : await sharpened(img, sigma);
    return await finish(img, { flattened: false, scale: 1, photo: quality === 'photo', deblurSigma: sigma });
  } catch (err) {
    if (err instanceof RecognitionFailedError) throw err;
    const why = err instanceof ImageRejected ? err.message : 'cannot decode the image';
    throw new RecognitionFailedError('undecodable_image', why);
  }
}

/**
 * The decoded page as one 8-bit channel. A colour image is reduced with {@link inkAwareGray}, so blue and violet
 * stamps and signatures over the text fade to paper before any threshold; a grey one is taken as it is.
 */
async function grayWithoutInk(img: sharp.Sharp, channels: number): Promise<{ data: Buffer; info: sharp.OutputInfo }> {
  if (channels < 3) return img.grayscale().raw().toBuffer({ resolveWithObject: true });
  const rgb = await img.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const pixels = rgb.info.width * rgb.info.height;
  const gray = inkAwareGray(rgb.data, pixels, rgb.info.channels);
  return { data: Buffer.from(gray.buffer, gray.byteOffset, gray.length), info: { ...rgb.info, channels: 1, size: pixels } };
}

/**
 * The sheet of a photo taken on a table, warped flat to A4 at 300 DPI; null (image left as it is) when the
 * image is not a `photo` and its border is not mostly dark, or when no plausible sheet outline is found.
 */
async function flattenSheet(
  data: Buffer,
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
  quality: ImageQuality,
): Promise<GrayImage | null> {
  const gray: GrayImage = {
    data: info.channels === 1 ? data : await sharp(data, { raw: info }).extractChannel(0).raw().toBuffer(),
    width: info.width,
    height: info.height,
  };
  if (quality !== 'photo') {
    // The cheap test on a 256 px copy keeps OpenCV (and its ~2 s load) away from ordinary scans and screenshots.
    const small = await sharp(gray.data, { raw: { ...info, channels: 1 } })
      .resize({ width: 256, height: 256, fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (!looksLikeSheetOnBackground({ data: small.data, width: small.info.width, height: small.info.height })) return null;
  }
  const quad = await findPageQuad(gray);
  if (!quad) return null;
  const a4 = a4SizeFor(quad);
  return warpToRectangle(gray, quad, { width: Math.round(a4.width * PHOTO_SCALE), height: Math.round(a4.height * PHOTO_SCALE) });
}

/**
 * Flat-field correction for phone photos that fill the frame: the same correction as a flattened sheet's
 * ({@link evenLight}: each pixel divided by the paper brightness estimated from the page reduced 32×, blurred and
 * enlarged back in separate pipelines), so a shadow or a dim corner becomes white paper and Tesseract's global
 * threshold works across the whole sheet. (This used to be one sharp pipeline with two `resize` calls, of which
 * sharp keeps only the last: the "paper" was the page blurred by 1.5 px, which divided the text by itself.)
 */
async function flattenLight(img: sharp.Sharp): Promise<sharp.Sharp> {
  const { data, info } = await img.toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return evenLight({ data, width: info.width, height: info.height });
}

/**
 * The page deconvolved for a Gaussian blur of `sigma` px (deblur.ts), for Tesseract to read. A flattened photo's
 * rules are still found on its page without it (`finish`'s `ruleImg`); other pages' rules on this one.
 */
async function sharpened(img: sharp.Sharp, sigma: number): Promise<sharp.Sharp> {
  const { data, info } = await img.toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const out = await deblur({ data, width: info.width, height: info.height }, sigma);
  return sharp(out.data, { raw: { width: out.width, height: out.height, channels: 1 } });
}

type PageKind = Pick<PreparedPage, 'flattened' | 'scale' | 'photo' | 'deblurSigma'>;

/**
 * Grayscale raw pixels → rules removed → PNG for Tesseract. `ruleImg` (same size as `img`; photos only): the image
 * the vertical rules are found in, when it is not the one read; they are erased from the read one. A flattened
 * photo is read with {@link paperLight} but its rules are found on {@link evenLight}'s page: on the brighter-paper
 * page the desk sliver at the sheet's edge no longer traces as a rule, and on dev-set photos whose table's last
 * border is lost (torg12-03, -05) that sliver stood in for it; with the rules of the read page the photo tier had
 * 735 of 1,301 fields wrong, with these 453 (docs/recognition-photo.md).
 */
async function finish(img: sharp.Sharp, kind: PageKind, ruleImg?: sharp.Sharp): Promise<PreparedPage> {
  const page = await grayRaster(img);
  const { width, height } = page;
  // `source` keeps the page before its rules are erased (tableRules erases them in `page.data`), for rotations.
  const source = sharp(Buffer.from(page.data), { raw: { width, height, channels: 1 } });
  const rulePage = ruleImg ? await grayRaster(ruleImg) : undefined;
  const { scale, photo } = kind;
  const rules = await tableRules(page, kind, rulePage);
  const png = await sharp(page.data, { raw: { width, height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const ruleSource = rulePage ? sharp(rulePage.data, { raw: { width: rulePage.width, height: rulePage.height, channels: 1 } }) : undefined;
  const { flattened, deblurSigma } = kind;
  return { png, width, height, rules, source, ruleSource, flattened, scale, photo, deblurSigma };
}

/**
 * A pipeline's output as one 8-bit channel on white, raw, with no PNG between: a PNG encode and decode of each A4 page
 * (twice for a photo) changed no pixel and cost time. @throws Error when it is not one byte a pixel.
 */
async function grayRaster(img: sharp.Sharp): Promise<GrayImage> {
  const { data, info } = await img
    .flatten({ background: '#ffffff' })
    .toColourspace('b-w')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 || data.length !== info.width * info.height)
    throw new Error(`expected 1 channel of 8 bits, got ${info.channels} channels in ${data.length} bytes`);
  return { data, width: info.width, height: info.height };
}

/**
 * Finds the vertical table rules of a page (8-bit grayscale, 300 × `kind.scale` DPI) and erases them from
 * `page.data` in place; returns them in page pixels. A photo's rules are found by local contrast (rule-mask.ts) in
 * `ruleImg` when given (same size as `page`; see `finish` for why a flattened photo's differ), else in the page.
 * @throws Error when `ruleImg` is not the page's size.
 */
export async function tableRules(page: GrayImage, kind: Pick<PageKind, 'scale' | 'photo'>, ruleImg?: GrayImage): Promise<VerticalRule[]> {
  const { data, width, height } = page;
  if (ruleImg && (ruleImg.width !== width || ruleImg.height !== height)) throw new Error('rule image size differs from the page');
  const mask = kind.photo ? await ruleMask(ruleImg ?? page, kind.scale) : undefined;
  return removeRules(data, width, height, Math.round(80 * kind.scale), 170, mask);
}

/** Rotates a prepared page by a multiple of 90° clockwise (after orientation detection). */
export async function rotatePage(page: PreparedPage, degrees: number): Promise<PreparedPage> {
  return finish(page.source.clone().rotate(degrees), page, page.ruleSource?.clone().rotate(degrees));
}

/** Rotates a prepared page by a small angle (deskew), white background, canvas grown to keep the corners. */
export async function deskewPage(page: PreparedPage, degrees: number): Promise<PreparedPage> {
  return finish(
    page.source.clone().rotate(degrees, { background: '#ffffff' }),
    page,
    page.ruleSource?.clone().rotate(degrees, { background: '#ffffff' }),
  );
}

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `rus` recogniser fine-tuned on photographed form type, shipped with the package (docs/recognition-photo.md
 * "Session 2026-11-30 (4)"; made by `scripts/ocr-training/train.ts --seeds 1,2 --pages 50 --iterations 900 --int`
 * as of commit 197d240, from the installed model; the extended model the script trains since is not shipped, see
 * "Session 2026-11-30 (5)"). Resolves to `packages/recognition-api/models/` from `src/` and from `dist/` alike.
 */
export const PHOTO_MODEL = fileURLToPath(new URL('../../../models/rus-photo.traineddata', import.meta.url));

/**
 * The photo model trained further with the Latin capitals `rus` lacks, `Ø` and `²` added to its outputs
 * (`scripts/ocr-training/train.ts --seeds 1,2,3,4,5,6,7 --pages 50 --iterations 8000 --int` as of a5f7f8b;
 * docs/recognition-photo.md "Session 2026-11-30 (6)"). No page model: it reads Russian words of a photo better than
 * {@link PHOTO_MODEL} but spends the added characters on glyphs it does not know. A second cross reading of a photo's
 * name column, whose words without Latin letters, `Ø` or `²` name-column.ts `mergeNameReadings` weighs. In the
 * photo tessdata directory as the language {@link PHOTO_EXTENDED_LANGUAGE}.
 */
export const PHOTO_EXTENDED_MODEL = fileURLToPath(new URL('../../../models/rus-photo-extended.traineddata', import.meta.url));

/** The `-l` name of {@link PHOTO_EXTENDED_MODEL} in the directory {@link photoTessdata} builds. */
export const PHOTO_EXTENDED_LANGUAGE = 'rus_extended';

let built: Promise<string | null> | null = null;

/**
 * A tessdata directory for phone photos: `rus` there is {@link PHOTO_MODEL}, every other entry (eng, osd, configs)
 * a link to the installed tessdata, so the calls of a photo page (`rus`, `rus+eng`, `eng`, OSD, the tsv and hocr
 * configs) need no other change than `--tessdata-dir`; {@link PHOTO_EXTENDED_LANGUAGE} is there too when shipped.
 * Built once per process under the OS temp directory. Null when the model file or the installed tessdata cannot be
 * found: photos are then read with the installed `rus`.
 */
export function photoTessdata(tesseractPath = 'tesseract'): Promise<string | null> {
  built ??= build(tesseractPath).catch(() => null);
  return built;
}

async function build(tesseractPath: string): Promise<string | null> {
  if (!existsSync(PHOTO_MODEL)) return null;
  const system = await installedTessdata(tesseractPath);
  if (!system) return null;
  const dir = await mkdtemp(join(tmpdir(), 'recognition-tessdata-'));
  for (const entry of await readdir(system)) if (entry !== 'rus.traineddata') await symlink(join(system, entry), join(dir, entry));
  await symlink(PHOTO_MODEL, join(dir, 'rus.traineddata'));
  if (existsSync(PHOTO_EXTENDED_MODEL)) await symlink(PHOTO_EXTENDED_MODEL, join(dir, `${PHOTO_EXTENDED_LANGUAGE}.traineddata`));
  return dir;
}

/** The directory Tesseract reads its models from, as `tesseract --list-langs` names it; null when it cannot run. */
export function installedTessdata(tesseractPath = 'tesseract'): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(tesseractPath, ['--list-langs'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString('utf8')));
    child.on('error', () => resolve(null));
    child.on('close', () => resolve(/"([^"]+)"/.exec(text)?.[1] ?? null));
  });
}

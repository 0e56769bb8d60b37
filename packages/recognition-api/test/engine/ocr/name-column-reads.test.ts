/**
 * rereadNameColumn's readings of the name-column crop run side by side (issue 20: seconds per page): the eng reading
 * starts beside the rus+eng one, and is stopped when the page no longer waits for it. A stand-in Tesseract logs when
 * each reading starts and ends; its rus+eng reading answers only once the eng one has started.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latinCandidate, rereadNameColumn } from '../../../src/engine/ocr/name-column.js';
import { PHOTO_EXTENDED_LANGUAGE } from '../../../src/engine/ocr/photo-model.js';
import { loadFixture } from '../fixtures.js';

let dir: string;
const fake = (name: string, crossExit: number, engTail: string, extendedTail = ':') => {
  const log = join(dir, `${name}.log`);
  const path = join(dir, name);
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'cat > /dev/null',
      'lang=""; prev=""',
      'for a in "$@"; do [ "$prev" = "-l" ] && lang="$a"; prev="$a"; done',
      `echo "start $lang" >> ${log}`,
      'if [ "$lang" = "rus+eng" ]; then',
      // Up to 10 s for the eng reading to start: it starts at once when the readings run side by side.
      `  i=0; while ! grep -q "start eng" ${log}; do i=$((i+1)); if [ $i -gt 200 ]; then echo alone >> ${log}; break; fi; sleep 0.05; done`,
      `  [ ${crossExit} -ne 0 ] && exit ${crossExit}`,
      "  echo '<html><body></body></html>'",
      'elif [ "$lang" = "eng" ]; then',
      `  echo $$ > ${log}.eng-pid`,
      `  ${engTail}`,
      "  printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'",
      'else',
      `  ${extendedTail}`,
      "  printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'",
      'fi',
      `echo "end $lang" >> ${log}`,
    ].join('\n'),
    { mode: 0o755 },
  );
  return { path, log: () => readFileSync(log, 'utf8').trim().split('\n') };
};

const page = loadFixture('upd-2pages', 2).pages[0];
const width = Math.max(...page.words.map((w) => w.left + w.width)) + 100;
const height = Math.max(...page.words.map((w) => w.top + w.height)) + 100;
let png: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'name-reads-'));
  png = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rereadNameColumn: the readings of the crop run side by side', () => {
  it('starts the eng reading before the rus+eng one has answered', async () => {
    const t = fake('both', 0, ':');
    const out = await rereadNameColumn(page.words, { png, width, height, rules: page.rules ?? [] }, { tesseractPath: t.path, languages: 'rus' });
    expect(out.length).toBeGreaterThan(0);
    const log = t.log();
    expect(log).not.toContain('alone');
    expect(log.indexOf('start eng')).toBeLessThan(log.indexOf('end rus+eng'));
  }, 20_000);

  it('stops the eng reading as soon as the merge finds no Latin candidate, while the extended one still runs', async () => {
    // A photo page with the extended model in its tessdata: the extended reading answers only once the eng process is
    // gone (up to 10 s), so it logs "alone" if the eng reading is left running until the end.
    const tessdata = join(dir, 'tessdata');
    mkdirSync(tessdata, { recursive: true });
    writeFileSync(join(tessdata, `${PHOTO_EXTENDED_LANGUAGE}.traineddata`), '');
    const waitForEng = (log: string) =>
      `i=0; while kill -0 $(cat ${log}.eng-pid 2>/dev/null || echo 0) 2>/dev/null; do i=$((i+1)); if [ $i -gt 200 ]; then echo alone >> ${log}; break; fi; sleep 0.05; done`;
    const t = fake('unasked', 0, 'exec sleep 30', waitForEng(join(dir, 'unasked.log')));
    // The page without its Latin-looking words, and an empty rus+eng reading, give the merge no Latin candidate.
    const russian = page.words.filter((w) => !latinCandidate(w.text));
    const call = { tesseractPath: t.path, languages: 'rus', tessdataDir: tessdata };
    const out = await rereadNameColumn(russian, { png, width, height, rules: page.rules ?? [], photo: true }, call);
    expect(out.length).toBeGreaterThan(0);
    const log = t.log();
    expect(log).toContain(`end ${PHOTO_EXTENDED_LANGUAGE}`);
    expect(log).not.toContain('alone');
    expect(log).not.toContain('end eng');
  }, 20_000);

  it('returns the page as read when the rus+eng reading fails, and stops the eng reading it no longer waits for', async () => {
    const t = fake('fails', 1, 'exec sleep 30');
    const out = await rereadNameColumn(page.words, { png, width, height, rules: page.rules ?? [] }, { tesseractPath: t.path, languages: 'rus' });
    expect(out).toBe(page.words);
    expect(t.log().sort()).toEqual(['start eng', 'start rus+eng']);
    // Stopped, not finished: the eng reading never writes its end (it would sleep 30 s first).
    await new Promise((r) => setImmediate(r));
    expect(t.log()).not.toContain('end eng');
  }, 20_000);
});

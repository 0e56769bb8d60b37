#!/usr/bin/env node
// System prerequisites of the recognition service and its tests, run by scripts/bootstrap.mjs before
// `npm start` / `npm test`: Tesseract 5 with Russian data (the local OCR engine), Debian chromium (docgen renders
// synthetic documents with it) and a sans-serif font family for those pages. Plain Node with no dependencies,
// because it runs before anything else; a present system answers in a few milliseconds (no subprocess but one
// `tesseract --list-langs`).
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const log = (msg) => process.stderr.write(`[check-system recognition-api] ${msg}\n`);

function tesseractHasRus() {
  const r = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return false;
  return /^rus$/m.test(`${r.stdout}\n${r.stderr}`);
}

const chromiumPresent = () => existsSync('/usr/bin/chromium');

// Liberation Sans (metric-compatible with Arial, as printed by 1C) or DejaVu Sans; either is enough.
function fontsPresent() {
  for (const dir of ['/usr/share/fonts/truetype/liberation', '/usr/share/fonts/truetype/dejavu']) {
    if (existsSync(dir) && readdirSync(dir).some((f) => /^(LiberationSans|DejaVuSans)[-.]/.test(f))) return true;
  }
  return false;
}

const needs = [
  { what: 'tesseract with Russian data', ok: tesseractHasRus, packages: ['tesseract-ocr', 'tesseract-ocr-rus'] },
  { what: 'chromium (docgen)', ok: chromiumPresent, packages: ['chromium'] },
  { what: 'sans-serif fonts (docgen)', ok: fontsPresent, packages: ['fonts-liberation', 'fonts-dejavu-core'] },
];

const missing = needs.filter((n) => !n.ok());
if (missing.length === 0) process.exit(0);

const packages = missing.flatMap((n) => n.packages);
const command = `apt-get install -y ${packages.join(' ')}`;
log(`missing: ${missing.map((n) => n.what).join(', ')}`);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  log(`not root; run this once and retry:\n  sudo apt-get update && sudo ${command}`);
  process.exit(1);
}

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
function apt(args) {
  log(`running: apt-get ${args.join(' ')}`);
  return spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
}

// A fresh machine often has no package lists yet: update only when the first attempt fails.
if (!apt(['install', '-y', ...packages])) {
  if (!apt(['update']) || !apt(['install', '-y', ...packages])) {
    log(`installation failed; run manually: apt-get update && ${command}`);
    process.exit(1);
  }
}

const still = needs.filter((n) => !n.ok());
if (still.length > 0) {
  log(`still missing after installation: ${still.map((n) => n.what).join(', ')}`);
  process.exit(1);
}
log('system prerequisites installed');

#!/usr/bin/env node
// System prerequisites of the recognition service and its tests, run by scripts/bootstrap.mjs before
// `npm start` / `npm test`: Tesseract 5 with Russian and English data (the local OCR engine reads `rus+eng`),
// poppler-utils (PDF uploads: pdfinfo, pdftotext, pdftoppm), qpdf (the tests encrypt PDFs with it), libxml2-utils
// (xmllint checks formalized UPD XML against the FNS XSD), Debian
// chromium (docgen renders synthetic documents with it) and a sans-serif font family for those pages. Plain Node with no dependencies,
// because it runs before anything else; a present system answers in a few tens of milliseconds (`tesseract
// --list-langs` and the `-v`/`--version` of the poppler tools and qpdf).
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const log = (msg) => process.stderr.write(`[check-system recognition-api] ${msg}\n`);

function tesseractLangs() {
  const r = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? '' : `${r.stdout}\n${r.stderr}`;
}
const tesseractHasRus = () => /^rus$/m.test(tesseractLangs());
const tesseractHasEng = () => /^eng$/m.test(tesseractLangs());

// `-v` prints the version and exits 0 (poppler ≥ 0.86); a missing binary gives an ENOENT error.
const runs = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !r.error && r.status === 0;
};
const popplerPresent = () => runs('pdftoppm', ['-v']) && runs('pdfinfo', ['-v']) && runs('pdftotext', ['-v']);
const qpdfPresent = () => runs('qpdf', ['--version']);
const xmllintPresent = () => runs('xmllint', ['--version']);

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
  { what: 'tesseract English data (rus+eng)', ok: tesseractHasEng, packages: ['tesseract-ocr-eng'] },
  { what: 'poppler-utils (PDF uploads)', ok: popplerPresent, packages: ['poppler-utils'] },
  { what: 'qpdf (PDF tests)', ok: qpdfPresent, packages: ['qpdf'] },
  { what: 'xmllint (formalized XML, XSD validation)', ok: xmllintPresent, packages: ['libxml2-utils'] },
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

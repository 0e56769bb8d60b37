import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@app/shared/chromium';
import { chromium, type Browser } from 'playwright-core';

let browser: Promise<Browser> | null = null;

async function getBrowser(): Promise<Browser> {
  // One browser per process: launching costs ~1 s, a page ~50 ms. A browser that died (crash, OOM kill) is
  // replaced, so a long benchmark run survives it.
  if (browser && !(await browser.catch(() => null))?.isConnected()) browser = null;
  browser ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
  return browser;
}

/**
 * Renders every `<section class="page">` of `html` to a PNG. `dpi` sets the device scale (CSS px are 1/96 in),
 * so 300 gives A4 landscape sheets of 3509×2481 px.
 */
export async function renderPages(html: string, dpi: number): Promise<Buffer[]> {
  const b = await getBrowser();
  const context = await b.newContext({ viewport: { width: 1123, height: 794 }, deviceScaleFactor: dpi / 96 }).catch(async () => {
    browser = null;
    return (await getBrowser()).newContext({ viewport: { width: 1123, height: 794 }, deviceScaleFactor: dpi / 96 });
  });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    const out: Buffer[] = [];
    for (const el of await page.$$('section.page')) out.push(await el.screenshot({ type: 'png' }));
    return out;
  } finally {
    await context.close();
  }
}

/**
 * Prints `html` to a PDF with chromium's print-to-PDF: one A4 landscape page per `<section class="page">`, text kept
 * as text (a text layer with the fonts embedded), as office software and 1C produce PDFs.
 */
export async function renderPdf(html: string): Promise<Buffer> {
  const b = await getBrowser();
  const context = await b.newContext({ viewport: { width: 1123, height: 794 } });
  try {
    const page = await context.newPage();
    // Each section is exactly one sheet (1123×794 CSS px = 297×210 mm): no margins, a break after each.
    const print = '<style>@page { size: 297mm 210mm; margin: 0 } section.page { break-after: page; }</style>';
    await page.setContent(html.replace('</head>', `${print}</head>`), { waitUntil: 'load' });
    return await page.pdf({ width: '297mm', height: '210mm', printBackground: true, margin: { top: '0', right: '0', bottom: '0', left: '0' } });
  } finally {
    await context.close();
  }
}

/** Closes the shared browser (call once when a test file or CLI run is done). */
export async function closeRenderer(): Promise<void> {
  const b = browser;
  browser = null;
  if (b) await (await b).close();
}

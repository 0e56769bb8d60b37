import { chromium, type Browser } from 'playwright-core';

/** Flags for Debian's /usr/bin/chromium in tests: headless, no sandbox (containers), nothing phoning home. */
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium driven by playwright-core, as the panel's browser tests use it. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS, headless: true });

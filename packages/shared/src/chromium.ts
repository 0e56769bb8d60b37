/**
 * How this project starts Chromium through playwright-core (docgen's PDF renderer, the panels' browser tests): one
 * place for the binary and its flags. No import, so a package takes it without the rest of `@app/shared`.
 */

/** Debian's chromium; playwright's own browser builds cannot be downloaded here (check-system installs this). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, no sandbox (containers), no GPU, nothing phoning home (updates, sync, background networking). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

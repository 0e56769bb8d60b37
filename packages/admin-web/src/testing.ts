import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@app/shared/chromium';
import { chromium, type Browser } from 'playwright-core';

/** Flags for Debian's chromium in tests (the project's one list, `@app/shared/chromium`). */
export const LAUNCH_ARGS = [...CHROMIUM_ARGS];

/** Debian's Chromium driven by playwright-core, as the panel's browser tests use it. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, headless: true });

import { type Browser, chromium } from 'playwright-core';

/** Chromium flags for this machine's closed network (no background fetches, no sandbox as root). */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches Debian's Chromium (CHROMIUM_PATH overrides /usr/bin/chromium). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ARGS,
    headless: true,
  });
}

import { existsSync } from 'node:fs';

import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** The browser: Debian's chromium package unless CHROMIUM_PATH names another Chromium or Chrome. */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Starts headless Chromium, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `No Chromium at ${chromiumPath}: this test opens pages in a real browser. ` +
        "Fix: install Debian's chromium package (apt-get install chromium; .ci/run does it in CI), " +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    );
  }
  return puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** Collects the console errors, page errors and failed requests of `page` into `problems`. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
}

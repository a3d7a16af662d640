import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { SubscriptionServer } from '../../src/notifications/live/subscription-server';
import { type TestApp, useTestApp } from '../setup/harness';

/** Debian's `chromium` package; CI installs it. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** Set by .ci/run: there a missing browser is a failure, never a silent skip. */
const chromiumRequired = process.env.REQUIRE_CHROMIUM === '1';

/**
 * `describe` when Chromium is installed. Without it the tests fail under CI and are
 * skipped elsewhere, with a note on stderr: `npm test` must pass on a fresh machine that
 * has only Node.js, and a browser is not an npm package here.
 */
export function describeInChromium(title: string, body: () => void): void {
  if (hasChromium) {
    describe(`${title} in headless Chromium`, body);
    return;
  }
  if (chromiumRequired) {
    describe(title, () => {
      it(`needs ${CHROMIUM} (REQUIRE_CHROMIUM=1)`, () => {
        throw new Error(`${CHROMIUM} is absent: apt-get install chromium`);
      });
    });
    return;
  }
  process.stderr.write(`Skipping "${title}": ${CHROMIUM} is absent (apt-get install chromium).\n`);
  describe.skip(`${title} (skipped: ${CHROMIUM} is absent)`, body);
}

export interface BrowserHarness {
  t: TestApp;
  /** `http://127.0.0.1:<port>` of the app. */
  baseUrl: string;
  /**
   * A new page that records every request leaving the app (`offsite`: the assets
   * must all be served by this service).
   */
  openPage(viewport: { width: number; height: number }): Promise<{ page: Page; offsite: string[] }>;
  /** The path of `screenshots/<name>` (the folder is created). */
  screenshotPath(name: string): string;
}

/** The test app listening on loopback and one headless Chromium, for the enclosing describe block. */
export function useBrowser(): BrowserHarness {
  const t = useTestApp();
  let server: Server;
  let subscriptions: SubscriptionServer | undefined;
  let browser: Browser;
  const harness: BrowserHarness = {
    t,
    baseUrl: '',
    openPage: async (viewport) => {
      const page = await browser.newPage({ viewport });
      const offsite: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(harness.baseUrl) && !url.startsWith('data:')) offsite.push(url);
      });
      return { page, offsite };
    },
    screenshotPath: (name) => {
      const folder = join(__dirname, '../../screenshots');
      mkdirSync(folder, { recursive: true });
      return join(folder, name);
    },
  };

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const listening = createServer(t.app).listen(0, '127.0.0.1', () => resolve(listening));
    });
    harness.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    subscriptions = t.attach(server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await subscriptions?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  return harness;
}

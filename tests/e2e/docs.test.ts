import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { buildManga } from '../factories';
import { useTestApp } from '../setup/harness';

/** Debian's `chromium` package; CI installs it, so only a machine without it skips. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const SCREENSHOT = join(__dirname, '../../screenshots/docs.png');

const describeWithChromium = hasChromium ? describe : describe.skip;
if (!hasChromium) {
  process.stderr.write(
    `Skipping the /docs end-to-end test: ${CHROMIUM} is absent (apt-get install chromium).\n`,
  );
}

describeWithChromium(
  `REST reference (Swagger UI) in headless Chromium${hasChromium ? '' : ` (skipped: ${CHROMIUM} is absent)`}`,
  () => {
    const t = useTestApp();
    let server: Server;
    let baseUrl: string;
    let browser: Browser;

    beforeAll(async () => {
      server = await new Promise<Server>((resolve) => {
        const listening = t.app.listen(0, '127.0.0.1', () => resolve(listening));
      });
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
      await new Promise((resolve) => server?.close(resolve));
    });

    it('lists the contract paths and runs GET /manga/{slug} against this service', async () => {
      const manga = await buildManga(t.orm, { title_en: 'Docs Test Manga' });
      const page = await browser.newPage({ viewport: { width: 1400, height: 1600 } });
      const offsite: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:'))
          offsite.push(request.url());
      });
      try {
        const response = await page.goto(`${baseUrl}/docs`);
        expect(response?.status()).toBe(200);

        // Operations are rendered once Swagger UI has loaded and parsed /openapi.json.
        const pathOf = (path: string) => page.locator(`.opblock-summary-path[data-path="${path}"]`);
        await pathOf('/manga/{slug}').first().waitFor({ timeout: 20000 });
        await pathOf('/watch/{username}/list').first().waitFor({ timeout: 20000 });
        // The document declares the `auth` header scheme, so the Authorize button is offered.
        await page.locator('.auth-wrapper .authorize').waitFor({ timeout: 20000 });

        const operation = page.locator('.opblock-get', { has: pathOf('/manga/{slug}') }).first();
        await operation.locator('.opblock-summary').click();
        // tryItOutEnabled opens the operation ready to run: no "Try it out" click is needed.
        await operation.locator('input[placeholder="slug"]').fill(manga.slug);
        await operation.locator('button.execute').click();

        const live = operation.locator('.live-responses-table');
        await live.locator('.response-col_status', { hasText: '200' }).waitFor({ timeout: 20000 });
        const body = (await live.locator('.response-col_description pre').first().innerText()).replace(
          /\s+/g,
          ' ',
        );
        expect(body).toContain(`"slug": "${manga.slug}"`);
        expect(body).toContain('"title_en": "Docs Test Manga"');
        // The request URL Swagger UI shows is this service's own.
        expect(await operation.locator('.request-url pre').innerText()).toBe(
          `${baseUrl}/manga/${manga.slug}`,
        );

        // The whole page is several screens tall: the picture shows the executed operation.
        await operation.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
        await page.screenshot({ path: SCREENSHOT });
        // Every asset and the executed call stayed on this service (no CDN, no online validator).
        expect(offsite).toEqual([]);
      } finally {
        await page.close();
      }
    }, 60000);
  },
);

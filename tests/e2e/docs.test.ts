import { buildManga } from '../factories';
import { describeInChromium, useBrowser } from './browser';

describeInChromium('REST reference (Swagger UI)', () => {
  const browser = useBrowser();
  const { t } = browser;

  it('lists the contract paths and runs GET /manga/{slug} against this service', async () => {
    const manga = await buildManga(t.orm, { title_en: 'Docs Test Manga' });
    const { page, offsite } = await browser.openPage({ width: 1400, height: 1600 });
    try {
      const response = await page.goto(`${browser.baseUrl}/docs`);
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
        `${browser.baseUrl}/manga/${manga.slug}`,
      );

      // The whole page is several screens tall: the picture shows the executed operation.
      await operation.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: browser.screenshotPath('docs.png') });
      // Every asset and the executed call stayed on this service (no CDN, no online validator).
      expect(offsite).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60000);
});

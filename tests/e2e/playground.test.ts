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
const SCREENSHOT = join(__dirname, '../../screenshots/playground.png');

const describeWithChromium = hasChromium ? describe : describe.skip;
if (!hasChromium) {
  process.stderr.write(
    `Skipping the playground end-to-end test: ${CHROMIUM} is absent (apt-get install chromium).\n`,
  );
}

describeWithChromium(
  `GraphQL playground in headless Chromium${hasChromium ? '' : ` (skipped: ${CHROMIUM} is absent)`}`,
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

    it('runs a manga(slug:) query typed into GraphiQL and shows the result', async () => {
      const manga = await buildManga(t.orm, { title_en: 'Playground Test Manga' });
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const offsite: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:'))
          offsite.push(request.url());
      });
      try {
        const response = await page.goto(`${baseUrl}/graphql`);
        expect(response?.status()).toBe(200);

        // The query editor (CodeMirror) is ready once GraphiQL has mounted.
        const editor = page.locator('.graphiql-query-editor .CodeMirror');
        await editor.waitFor({ timeout: 20000 });
        await editor.click();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Backspace');
        // insertText types the text as entered, without the editor's bracket auto-closing.
        await page.keyboard.insertText(
          `query {\n  manga(slug: "${manga.slug}") {\n    slug\n    title_en\n  }\n}\n`,
        );
        await page.locator('.graphiql-execute-button').click();

        const result = page.locator('.graphiql-response', { hasText: 'Playground Test Manga' });
        await result.waitFor({ timeout: 20000 });
        const shown = (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
        expect(shown).toContain(`"slug": "${manga.slug}"`);
        expect(shown).toContain('"cost": 3');

        // The schema docs are browsable (introspection is on).
        await page.getByRole('button', { name: /documentation explorer/i }).click();
        const docs = page.locator('.graphiql-doc-explorer');
        await docs.getByText('Query', { exact: true }).first().click();
        await docs.getByText('mangaList', { exact: true }).first().waitFor({ timeout: 20000 });

        mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        // Every asset came from this service (no CDN).
        expect(offsite).toEqual([]);
      } finally {
        await page.close();
      }
    }, 60000);

    it('answers JSON, not the page, to API clients on GET /graphql', async () => {
      const response = await fetch(`${baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
        headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { __typename: 'Query' }, extensions: { cost: 0 } });
      const html = await fetch(`${baseUrl}/graphql`, { headers: { accept: 'text/html' } });
      expect(html.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await html.text()).toContain('/graphql/assets/graphiql.js');
    });
  },
);

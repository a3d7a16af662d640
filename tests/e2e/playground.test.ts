import { DEMO_MANGA_SLUG, PLAYGROUND_EXAMPLES } from '../../src/graphql/playground-examples';
import { buildCredit, buildManga, buildPerson, buildRole, buildToken, buildUser } from '../factories';
import { rest } from '../setup/clients';
import { describeInChromium, useBrowser } from './browser';

/** GraphiQL titles a tab with its operation's name. */
const operationNameOf = (document: string) => /^(?:query|mutation|subscription) (\w+)/m.exec(document)?.[1];

describeInChromium('GraphQL playground', () => {
  const browser = useBrowser();
  const { t } = browser;

  it('opens with the example tabs and runs the first, a manga page with its authors, as it is', async () => {
    // The first example names a demo manga by slug: this test's data has one by that slug.
    const manga = await buildManga(t.orm, { slug: DEMO_MANGA_SLUG, title_en: 'Example Tab Manga' });
    const author = await buildPerson(t.orm, { name_en: 'Example Tab Author' });
    await buildCredit(t.orm, author, { manga }, [await buildRole(t.orm, { name_en: 'Story' })]);
    const { page, offsite } = await browser.openPage({ width: 1400, height: 900 });
    try {
      await page.goto(`${browser.baseUrl}/graphql`);
      await page.locator('.graphiql-query-editor .CodeMirror').waitFor({ timeout: 20000 });
      const tabTitles = await page.locator('.graphiql-tab .graphiql-tab-button').allInnerTexts();
      expect(tabTitles.map((title) => title.trim())).toEqual(
        PLAYGROUND_EXAMPLES.map((example) => operationNameOf(example.query)),
      );
      await expect(page.locator('.graphiql-tab-active').innerText()).resolves.toContain(tabTitles[0]);

      await page.locator('.graphiql-execute-button').click();
      await page.locator('.graphiql-response', { hasText: 'Example Tab Manga' }).waitFor({ timeout: 20000 });
      const shown = (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
      expect(shown).toContain(`"slug": "${DEMO_MANGA_SLUG}"`);
      expect(shown).toContain('"name_en": "Example Tab Author"');
      expect(shown).not.toContain('"errors"');
      await page.screenshot({ path: browser.screenshotPath('playground-examples.png'), fullPage: true });
      expect(offsite).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60000);

  it('runs a manga(slug:) query typed into GraphiQL and shows the result', async () => {
    const manga = await buildManga(t.orm, { title_en: 'Playground Test Manga' });
    const { page, offsite } = await browser.openPage({ width: 1400, height: 900 });
    try {
      const response = await page.goto(`${browser.baseUrl}/graphql`);
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
      // GraphiQL sends the operation name it parsed last, 100 ms after an edit (the first
      // example's until then); the tab's title changes with it.
      const firstTitle = operationNameOf(PLAYGROUND_EXAMPLES[0].query);
      await page.locator('.graphiql-tab-active', { hasText: firstTitle }).waitFor({ state: 'detached' });
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
      await page.screenshot({ path: browser.screenshotPath('playground.png'), fullPage: true });
      // Every asset came from this service (no CDN).
      expect(offsite).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60000);

  it('runs a subscription over the WebSocket, with the token from the Headers tab, and shows its events', async () => {
    const followed = await buildUser(t.orm);
    const token = await buildToken(t.orm, followed);
    const followerToken = await buildToken(t.orm, await buildUser(t.orm));
    const { page, offsite } = await browser.openPage({ width: 1400, height: 900 });
    try {
      const sockets: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      await page.goto(`${browser.baseUrl}/graphql`);
      const editor = page.locator('.graphiql-query-editor .CodeMirror');
      await editor.waitFor({ timeout: 20000 });

      await page.getByRole('button', { name: 'Headers' }).click();
      await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').click();
      await page.keyboard.insertText(`{"auth": "${token}"}`);

      await editor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.insertText('subscription {\n  notificationCount {\n    unseen\n  }\n}\n');
      // GraphiQL tells a subscription (for the WebSocket) from the editor's parsed document,
      // which follows the text after a short delay.
      await page.waitForTimeout(1000);
      await page.locator('.graphiql-execute-button').click();
      await page.locator('.graphiql-response', { hasText: '"unseen": 0' }).waitFor({ timeout: 20000 });
      expect(sockets).toEqual([`${browser.baseUrl.replace(/^http/, 'ws')}/graphql`]);

      // A write elsewhere: the open subscription shows the new count.
      const follow = await rest(t.app, 'PUT', `/follow/${followed.username}`, undefined, {
        token: followerToken,
      });
      expect(follow.status).toBe(200);
      await page.locator('.graphiql-response', { hasText: '"unseen": 1' }).waitFor({ timeout: 20000 });
      await page.screenshot({ path: browser.screenshotPath('playground-subscription.png'), fullPage: true });
      expect(offsite).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60000);

  it('answers JSON, not the page, to API clients on GET /graphql', async () => {
    const response = await fetch(`${browser.baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' }, extensions: { cost: 0 } });
    const html = await fetch(`${browser.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toContain('/graphql/assets/graphiql.js');
  });
});

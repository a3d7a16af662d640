import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

const t = useTestApp();

describe('GET /docs and GET /openapi.json', () => {
  it('serves the document as JSON', async () => {
    const res = await rest(t.app, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('serves an HTML page whose every URL is local, and its script bundle', async () => {
    const res = await rest(t.app, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toMatch(/(src|href)=["']\/\//);
    const scripts = [...res.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/docs/assets/api-reference.js']);
    expect(res.text).toContain('url":"/openapi.json"');
    const bundle = await rest(t.app, 'GET', scripts[0]);
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(Number(bundle.headers['content-length'])).toBeGreaterThan(100000);
  });
});

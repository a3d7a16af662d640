import { getOperationAST, OperationTypeNode, parse } from 'graphql';
import pino from 'pino';
import { DocumentCache, documentBytes, PersistedQueryTexts } from '../../src/graphql/document-cache';
import { CompiledOperation, type HeapReport } from '../../src/graphql/sql-plan/compile';
import { buildAppSchema } from '../../src/schema';
import { buildManga } from '../factories';
import { gql } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { startHttpApp } from '../http/http-app';
import { requestContext } from '../setup/request-context';

/**
 * The caches that hold what clients send (parsed documents with their compiled plans,
 * persisted query texts) are bounded by the heap their entries take, so that any number
 * of distinct documents evicts old ones instead of exhausting the heap.
 */
const t = useTestApp();

const MB = 1024 * 1024;

/** A document of `roots` aliased roots spreading one fragment, named `name` (distinct texts, distinct entries). */
const largeDocument = (name: string, roots: number) =>
  `query ${name} { ${Array.from({ length: roots }, (_, i) => `m${i}: manga(slug: "cached") { ...Title }`).join(' ')} } ` +
  'fragment Title on Manga { slug title_en score year genres { slug } authors { person { slug } roles { slug } } }';

describe('the size of a document', () => {
  it('grows with its tokens, and a long comment costs its characters only', () => {
    const small = documentBytes(parse(largeDocument('A', 1)));
    const large = documentBytes(parse(largeDocument('B', 25)));
    expect(large).toBeGreaterThan(5 * small);
    // A string literal of escapes holds a node of V8's for each (34 to 38 bytes measured).
    const escapes = documentBytes(parse(`{ manga(slug: "${'\\n'.repeat(10_000)}") { slug } }`));
    expect(escapes).toBeGreaterThan(10_000 * 34);
    const commented = documentBytes(parse(`# ${'x'.repeat(3000)}\n{ manga(slug: "x") { slug } }`));
    expect(commented).toBeLessThan(small);
    expect(commented).toBeGreaterThan(3000);
    // Apollo's own estimate (the JSON text) counts much less than the heap holds (about 270-440 bytes a token).
    const document = parse(largeDocument('C', 25));
    expect(documentBytes(document)).toBeGreaterThan(4 * JSON.stringify(document).length);
  });
});

describe('the document cache', () => {
  it('keeps the most recently used documents within its bytes, evicting the others', async () => {
    const oneDocument = documentBytes(parse(largeDocument('Q0', 3)));
    const cache = new DocumentCache(Math.floor(10.5 * (oneDocument + 256)));
    for (let i = 0; i < 100; i += 1) await cache.set(`key${i}`, parse(largeDocument(`Q${i}`, 3)));
    const counters = cache.counters();
    expect(counters.bytes).toBeLessThanOrEqual(counters.maxBytes);
    expect(counters.entries).toBe(10);
    expect(counters.evicted).toBe(90);
    expect(await cache.get('key0')).toBeUndefined();
    expect(await cache.get('key99')).toBeDefined();
    // A document looked up is kept over one that is not.
    await cache.get('key90');
    await cache.set('key100', parse(largeDocument('Q100', 3)));
    expect(await cache.get('key90')).toBeDefined();
    expect(await cache.get('key91')).toBeUndefined();
  });

  it('counts the plans compiled for a document with it, and drops an entry that grows past an eighth of the cache', async () => {
    const schema = await buildAppSchema();
    await buildManga(t.orm, { slug: 'cached' });
    const cache = new DocumentCache(4 * MB);
    const document = parse(largeDocument('Planned', 25));
    await cache.set('planned', document);
    const before = cache.counters().bytes;
    let reported = 0;
    const operation = getOperationAST(document)!;
    const compiled = cache.compiled(document, operation, (onHeld: HeapReport) => {
      return new CompiledOperation(schema, document, operation, t.orm.getMetadata(), {
        onHeld: (bytes) => {
          reported += bytes;
          onHeld(bytes);
        },
      });
    });
    // The same compiled operation on the next request.
    expect(cache.compiled(document, operation, () => undefined as never)).toBe(compiled);
    const plan = compiled.planFor({})!;
    expect(reported).toBeGreaterThan(0);
    expect(cache.counters().bytes).toBe(before + reported);
    // Running it keeps its statement texts, counted too.
    const ctx = requestContext(t.orm.em, 'cached');
    ctx.chooseReads(OperationTypeNode.QUERY);
    const afterCompiling = reported;
    expect(await plan.run(ctx, {})).toHaveLength(25);
    expect(reported).toBeGreaterThan(afterCompiling);
    expect(cache.counters().bytes).toBe(before + reported);

    // In a cache of which it takes more than an eighth, the entry goes once its plan is counted.
    const small = new DocumentCache(8 * (before + afterCompiling) - 1);
    await small.set('planned', document);
    expect(await small.get('planned')).toBe(document);
    small.compiled(document, operation, (onHeld) => {
      onHeld(afterCompiling);
      return compiled;
    });
    expect(await small.get('planned')).toBeUndefined();
    expect(small.counters()).toMatchObject({ entries: 0, refused: 1 });
  });
});

describe('the persisted query texts', () => {
  it('keep the most recent texts within their bytes, keys and bookkeeping counted', async () => {
    const texts = new PersistedQueryTexts(64 * 1024);
    for (let i = 0; i < 2000; i += 1)
      await texts.set(`hash${i}`.padEnd(64, '0'), `{ manga(slug: "m${i}") { slug } }`);
    const counters = texts.counters();
    expect(counters.bytes).toBeLessThanOrEqual(64 * 1024);
    // About 300 bytes an entry: far fewer than the characters alone would allow (about 2,000).
    expect(counters.entries).toBeLessThan(400);
    expect(await texts.get('hash1999'.padEnd(64, '0'))).toBe('{ manga(slug: "m1999") { slug } }');
    expect(await texts.get('hash0'.padEnd(64, '0'))).toBeUndefined();
  });
});

describe('/graphql with a small document cache', () => {
  it('answers every document, evicting and compiling again as needed, and says so in one rate-limited line', async () => {
    await buildManga(t.orm, { slug: 'cached', title_en: 'Cached' });
    const lines: { msg: string; documents?: number }[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = await startHttpApp(t.orm, { GRAPHQL_DOCUMENT_CACHE_MB: '1' }, log);
    try {
      const expected = { slug: 'cached', title_en: 'Cached', score: expect.any(Number) };
      for (let round = 0; round < 2; round += 1) {
        for (let i = 0; i < 60; i += 1) {
          const res = await gql(app.app, largeDocument(`Distinct${i}`, 3));
          expect(res.status).toBe(200);
          expect(res.body.errors).toBeUndefined();
          expect(res.body.data.m2).toMatchObject(expected);
        }
      }
      const evictions = lines.filter((line) => line.msg.startsWith('document cache:'));
      expect(evictions.length).toBeGreaterThan(0);
      expect(evictions.length).toBeLessThan(5);
      expect(evictions[0].msg).toMatch(
        /evicted in the last \d+s; it holds \d+ documents in [\d.]+ MB of 1.0 MB/,
      );
    } finally {
      await app.stop();
    }
  });
});

import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { type DocumentNode, getOperationAST, Lexer, OperationTypeNode, Source, TokenKind } from 'graphql';
import { Notification } from '../src/notifications/notification.entity';
import { RequestContext } from '../src/context';
import { documentBytes } from '../src/graphql/document-cache';
import { graphqlLimitsOf } from '../src/graphql/limits';
import { OperationChecks } from '../src/graphql/preparation';
import { CompiledOperation } from '../src/graphql/sql-plan/compile';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { createOrm } from '../src/orm';
import { buildAppSchema } from '../src/schema';

/**
 * `npm run measure:heap`: what parsed documents, their compiled plans and a live
 * notification's delivery really take in the heap, beside the estimates the caches and
 * the heap budget count them by (src/graphql/document-cache.ts, src/graphql/sql-plan,
 * src/heap-budget.ts). Each shape is made MEASURE_COUNT (300) times with distinct texts and
 * held; the heap is read after full collections before and after. DATABASE_URL names a
 * database with the demo data (the plans run once against it). Run it after changing what
 * a document or plan holds, and keep the estimates at or above the measures.
 */
const COUNT = Number(process.env.MEASURE_COUNT ?? '300');

const FIELDS = [
  'slug',
  'title_en',
  'title_ua',
  'title_original',
  'score',
  'scored_by',
  'media_type',
  'status',
  'year',
  'start_date',
  'end_date',
  'synopsis_en',
  'nsfw',
  'image',
  'translated_ua',
  'native_score',
  'comments_count',
  'updated',
];

/** Document shapes: small and large as the memory test sends them, and extremes of token density. */
const shapes = (slug: string): Record<string, (i: number) => string> => ({
  small: (i) =>
    `query Small${i} { manga(slug: "${slug}") { ${FIELDS.slice(0, 10).join(' ')} genres { slug name_en } } }`,
  large: (i) =>
    `query Large${i} { ${Array.from({ length: 25 }, (_, r) => `m${r}: manga(slug: "${slug}") { ...F }`).join(' ')} } ` +
    `fragment F on Manga { ${FIELDS.join(' ')} genres { slug name_en } authors { person { slug name_en } roles { slug } } }`,
  page: (i) =>
    `query Page${i} { novelSearch(size: ${1 + (i % 100)}) { pagination { total pages } list { ${FIELDS.slice(0, 12).join(' ')} genres { slug } } } }`,
  nested: (i) =>
    `query Nested${i} { novelSearch { list { slug genres { slug name_en } } pagination { total } } ` +
    `${Array.from({ length: 20 }, (_, r) => `b${r}: manga(slug: "${slug}") { slug authors { person { slug } roles { slug } } genres { slug } }`).join(' ')} }`,
  dense: (i) =>
    `query Dense${i}{manga(slug:"${slug}"){${Array.from({ length: 30 }, (_, r) => `a${r}:slug`).join(' ')} ${'slug '.repeat(400)}}}`,
  commented: (i) => `# ${'x'.repeat(3000)}\nquery Commented${i} { manga(slug: "${slug}") { slug } }`,
});

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterCollecting(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const tokens = (text: string): number => {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
};

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc (npm run measure:heap does)');
  const config = loadConfig();
  const orm = await createOrm(process.env.DATABASE_URL ?? '');
  const schema = await buildAppSchema();
  const checks = new OperationChecks(graphqlLimitsOf(config));
  const log = createLogger({ ...config, logLevel: 'silent' });
  const context = () => {
    const ctx = new RequestContext(orm.em, 'measure', 'en', log, undefined, undefined as never, undefined);
    ctx.chooseReads(OperationTypeNode.QUERY);
    return ctx;
  };
  const [{ slug }] = await orm.em
    .getConnection()
    .execute<{ slug: string }[]>(`select slug from manga where not deleted order by slug limit 1`);
  const only = process.argv[2];
  for (const [name, make] of Object.entries(shapes(slug)).filter(([each]) => each === only)) {
    // Warm-up: code compiled and shared structures built before measuring.
    for (let i = 0; i < 20; i += 1) checks.document(schema, make(COUNT + i));
    const documents: DocumentNode[] = [];
    const before = heapAfterCollecting();
    for (let i = 0; i < COUNT; i += 1) {
      const { document, errors } = checks.document(schema, make(i));
      if (!document) throw new Error(`${name}: ${errors?.[0]?.message}`);
      documents.push(document);
    }
    const held = (heapAfterCollecting() - before) / COUNT;
    const estimate = documentBytes(documents[0]);
    let reported = 0;
    const operations: CompiledOperation[] = [];
    const compiledBefore = heapAfterCollecting();
    for (const document of documents) {
      const operation = getOperationAST(document)!;
      const compiled = new CompiledOperation(schema, document, operation, orm.getMetadata(), {
        onHeld: (bytes) => {
          if (document === documents[0]) reported += bytes;
        },
      });
      await compiled.planFor({})?.run(context(), {});
      operations.push(compiled);
    }
    const planHeld = (heapAfterCollecting() - compiledBefore) / COUNT;
    const row = [
      name.padEnd(10),
      String(tokens(make(0))).padStart(6),
      String(Math.round(held)).padStart(15),
      String(estimate).padStart(9),
      String(Math.round(planHeld)).padStart(20),
      reported > 0 ? String(reported).padStart(15) : '     no SQL form',
    ];
    console.log(row.join(' '));
  }
  if (only !== 'delivery') return orm.close();
  // A live notification's delivery: the notification, its initiator, the entity manager that read them.
  const references = await orm.em
    .fork()
    .find(Notification, { initiator_user: { $ne: null } }, { limit: COUNT, fields: ['reference'] });
  const deliveries: unknown[] = [];
  const before = heapAfterCollecting();
  for (const { reference } of references)
    deliveries.push(await orm.em.fork().find(Notification, { reference }, { populate: ['initiator_user'] }));
  if (references.length > 0)
    console.log(
      `a delivered notification held ${Math.round((heapAfterCollecting() - before) / references.length)} bytes (of ${references.length})`,
    );
  await orm.close();
}

/** Each shape in a process of its own: what one shape leaves behind would blur the next one's figures. */
function measureEach(): void {
  console.log('shape      tokens  document: held  estimate   plan run once: held  estimate+texts');
  for (const shape of [...Object.keys(shapes('')), 'delivery'])
    execFileSync(process.execPath, [...process.execArgv, __filename, shape], { stdio: 'inherit' });
}

if (process.argv[2]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  measureEach();
}

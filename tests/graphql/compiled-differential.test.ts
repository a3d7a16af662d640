import { createHash } from 'node:crypto';
import { getVariableValues, Kind, parse } from 'graphql';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { CompiledQueries } from '../../src/graphql/compiled-queries';
import { graphqlLimitsOf } from '../../src/graphql/limits';
import { OperationChecks } from '../../src/graphql/preparation';
import { buildAppSchema } from '../../src/schema';
import { gql } from '../setup/clients';
import { fixDate } from '../setup/fixed-date';
import { useTestApp } from '../setup/harness';
import { seedEveryCompiledRoot } from './compiled-reads-seeds';
import {
  CompilableSelections,
  type Feature,
  FEATURES,
  frontendDocument,
  type RootSelection,
  roots,
  seeded,
} from './random-documents';

/**
 * `/graphql` answers a query from compiled SQL when every selected field has a SQL form,
 * and through the resolvers otherwise; both must give the same answer. A document with a
 * root `__typename` is never compiled, so each random document is sent as written and as
 * its twin (` __typename` added to the operation's root selection set), as the same
 * caller on the same data: the status, `data` as JSON text (key order included, the
 * twin's `__typename` left out), the errors and the extensions must be the same (an
 * introspection field costs nothing, so `extensions.cost` is the same too). The
 * documents are written as a frontend and a hostile client write them
 * (random-documents.ts `frontendDocument`), within the default limits, with `$maybe`
 * given, left out and null, and some are sent as automatic persisted queries.
 */
const t = useTestApp();

afterEach(() => jest.useRealTimers());

/** How many /graphql queries the service answered from compiled SQL (src/graphql/compiled-queries.ts). */
let compiledAnswers = 0;
beforeAll(() => {
  const respond = CompiledQueries.prototype.respond;
  jest.spyOn(CompiledQueries.prototype, 'respond').mockImplementation(async function (
    this: CompiledQueries,
    ...args: Parameters<typeof respond>
  ) {
    const response = await respond.apply(this, args);
    if (response) compiledAnswers += 1;
    return response;
  });
});

/** The generator's seeds, and the documents drawn from each: about 30 s alone. */
const SEEDS = [1, 2, 3];
const DOCUMENTS_PER_SEED = 35;
/** The share of documents also sent as automatic persisted queries. */
const PERSISTED_SHARE = 0.25;
/** The values a document's `$maybe` (`Boolean = true`) is sent with: left out, given, null. */
const VALUES_OF_MAYBE: Record<string, unknown>[] = [{}, { maybe: true }, { maybe: false }, { maybe: null }];
const DIFFERENTIAL_TIMEOUT_MS = 180_000;

interface Caller {
  name: 'anonymous' | 'reader';
  token?: string;
}

/** An answer of /graphql: its HTTP status and JSON body. */
interface Answer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  };
}

/** How a request carried its document: as text, or by automatic persisted query (APQ). */
type Carried = 'text' | 'persisted, with the query' | 'persisted, hash alone';

/** A document, with its twin, sent with some variables by a caller. */
interface Case {
  seed: number;
  document: string;
  twin: string;
  variables: Record<string, unknown>;
  caller: Caller;
}

/** A problem found, with all it takes to send the request again. */
interface Difference {
  problem: string;
  seed: number;
  document: string;
  variables: Record<string, unknown>;
  caller: Caller['name'];
  carried: Carried;
  /** Where the answers first differ, and what each holds there. */
  differsAt?: Divergence;
  written?: Answer;
  twin?: Answer;
}

/** A path into two JSON values and what each holds there: the keys, in order, where those differ. */
interface Divergence {
  path: string;
  written: unknown;
  twin: unknown;
}

/** The document with ` __typename` first in its operation's root selection set (its opening `{` is the first). */
const twinOf = (document: string): string => document.replace('{', '{ __typename');

const answerOf = ({ status, body }: { status: number; body: Answer['body'] }): Answer => ({ status, body });

/** A document sent as text, as a frontend sends it. */
async function asText(text: string, { variables, caller }: Case): Promise<Answer> {
  return answerOf(await gql(t.app, text, variables, { token: caller.token }));
}

/** A document sent by automatic persisted query: its hash alone, or with the query. */
async function persisted(text: string, { variables, caller }: Case, withQuery: boolean): Promise<Answer> {
  const call = request(t.app).post('/graphql').set('Content-Type', 'application/json');
  if (caller.token) call.set('auth', caller.token);
  const extensions = {
    persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(text).digest('hex') },
  };
  return answerOf(
    await call.send(withQuery ? { query: text, variables, extensions } : { variables, extensions }),
  );
}

/** The twin's answer as the written document's would be: its root `__typename` left out. */
function withoutRootTypename(answer: Answer): Answer {
  if (!answer.body.data) return answer;
  const data = { ...answer.body.data };
  delete data.__typename;
  return { ...answer, body: { ...answer.body, data } };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where two JSON values first differ, key order included; undefined when their JSON texts are the same. */
function divergence(written: unknown, twin: unknown, path = '$'): Divergence | undefined {
  if (JSON.stringify(written) === JSON.stringify(twin)) return undefined;
  if (Array.isArray(written) && Array.isArray(twin) && written.length === twin.length)
    return written.map((item, i) => divergence(item, twin[i], `${path}[${i}]`)).find(Boolean);
  if (isRecord(written) && isRecord(twin)) {
    const keys = Object.keys(written);
    if (keys.join() !== Object.keys(twin).join()) return { path, written: keys, twin: Object.keys(twin) };
    return keys.map((key) => divergence(written[key], twin[key], `${path}.${key}`)).find(Boolean);
  }
  return { path, written, twin };
}

/** The refusal of a null `$maybe`, used where a value is required: before anything runs, as REST words it. */
const refusesNull = ({ status, body }: Answer): boolean =>
  status === 400 &&
  body.errors?.[0]?.extensions?.code === 'system:validation_error' &&
  body.errors[0].message === 'Invalid field maybe in request path';

/** The most fields the compiler builds into one object (MAX_KEYS in src/graphql/sql-plan/compile.ts). */
const MAX_COMPILED_FIELDS = 50;

/** The most keys of an object within `value`. */
const widestObject = (value: unknown): number =>
  Array.isArray(value)
    ? Math.max(0, ...value.map(widestObject))
    : isRecord(value)
      ? Math.max(Object.keys(value).length, ...Object.values(value).map(widestObject))
      : 0;

/**
 * Whether a document should compile, judged by its executed twin's answer: the compiler
 * leaves to execution a document whose conditions leave no root field (it answers `{}`)
 * and one with an object of more fields than it builds.
 */
function meantToCompile(twin: Answer): boolean {
  const roots = Object.entries(twin.body.data ?? {}).filter(([key]) => key !== '__typename');
  return roots.length > 0 && roots.every(([, value]) => widestObject(value) <= MAX_COMPILED_FIELDS);
}

/** What the run found and how much it covered. */
class Findings {
  readonly differences: Difference[] = [];
  readonly counts = {
    documents: 0,
    /** Documents drawn again because their twin exceeded a default limit. */
    redrawn: 0,
    persisted: 0,
    requests: 0,
    /** Comparisons without a null `$maybe`, and those answered without errors. */
    compared: 0,
    ran: 0,
    /** Documents with each of their non-null values; those {@link meantToCompile}; those compiled. */
    pairs: 0,
    meantToCompile: 0,
    compiled: 0,
  };

  report(
    { seed, document, variables, caller }: Case,
    problem: string,
    carried: Carried,
    written?: Answer,
    twin?: Answer,
    differsAt?: Divergence,
  ): void {
    this.differences.push({
      problem,
      seed,
      document,
      variables,
      caller: caller.name,
      carried,
      differsAt,
      written,
      twin,
    });
  }

  /**
   * Sends the document and its twin the same way and compares the answers; returns the
   * twin's, and how many of the two the service answered from compiled SQL.
   */
  async compare(
    sent: Case,
    carried: Carried,
    send: (text: string) => Promise<Answer>,
  ): Promise<{ twin: Answer; compiled: number }> {
    const compiledBefore = compiledAnswers;
    const [written, twin] = await Promise.all([send(sent.document), send(sent.twin)]);
    const compiled = compiledAnswers - compiledBefore;
    this.counts.requests += 2;
    // As JSON text (key order counts), the twin's root `__typename` left out.
    const differsAt = divergence(written, withoutRootTypename(twin));
    if (differsAt) this.report(sent, 'the answers differ', carried, written, twin, differsAt);
    if (sent.variables.maybe === null) {
      if (!refusesNull(written) || !refusesNull(twin))
        this.report(sent, 'a null $maybe is not refused', carried, written, twin);
    } else {
      this.counts.compared += 1;
      if (written.status === 200 && !written.body.errors) this.counts.ran += 1;
    }
    return { twin, compiled };
  }

  summary(seeds: number): string {
    const { documents, redrawn, persisted, requests, compared, ran, pairs, meantToCompile, compiled } =
      this.counts;
    return (
      `compiled-differential: ${documents} documents from ${seeds} seeds (${redrawn} drawn again to keep ` +
      `within the limits; ${persisted} also sent as persisted queries), ${requests} requests; ` +
      `${ran} of ${compared} comparisons without a null $maybe answered without errors; of ${pairs} ` +
      `documents with each non-null value, ${meantToCompile} are meant to compile and ${compiled} of them did\n`
    );
  }
}

describe('compiled and executed answers of the same random documents', () => {
  it(
    'are alike over HTTP for every seed, caller and value of $maybe, sent as text and as persisted queries',
    async () => {
      // One "now" for every request (the schedule's time_left).
      const now = Date.now();
      fixDate(now);
      const { token } = await seedEveryCompiledRoot(t.orm, t.app, now);
      const schema = await buildAppSchema();
      const selections = new CompilableSelections(schema, t.orm.getMetadata());
      const checks = new OperationChecks(graphqlLimitsOf(loadConfig()));
      const available: RootSelection[] = roots.map((root) => ({
        root,
        type: selections.rootType(root.field),
        selection: selections.largestSelection(root),
      }));
      const anonymous: Caller = { name: 'anonymous' };
      const reader: Caller = { name: 'reader', token };
      // The token's first use slides its session; every compared request comes after.
      expect((await gql(t.app, '{ notificationCount { unseen } }', {}, { token })).status).toBe(200);

      /** Whether the default limits admit the document's twin (the document has one token less). */
      const withinLimits = (document: string): boolean => {
        const { document: parsed, errors } = checks.document(schema, twinOf(document));
        if (errors) return false;
        const operation = parsed!.definitions.find((each) => each.kind === Kind.OPERATION_DEFINITION)!;
        try {
          checks.cost(schema, parsed!, operation, {});
          return true;
        } catch {
          return false;
        }
      };

      const findings = new Findings();
      const { counts } = findings;
      const features = new Set<Feature>();
      /** Documents whose hash the server has been sent: it may know them since. */
      const hashed = new Set<string>();
      for (const seed of SEEDS) {
        const random = seeded(seed);
        for (let i = 0; i < DOCUMENTS_PER_SEED; i += 1) {
          let drawn = frontendDocument(random, available);
          while (!withinLimits(drawn.text)) {
            counts.redrawn += 1;
            drawn = frontendDocument(random, available);
          }
          const document = drawn.text;
          const twinDocument = twinOf(document);
          const operation = parse(document).definitions.find(
            (each) => each.kind === Kind.OPERATION_DEFINITION,
          )!;
          const sendPersisted = random() < PERSISTED_SHARE;
          counts.documents += 1;
          drawn.features.forEach((feature) => features.add(feature));
          const valuesOfMaybe = drawn.usesMaybe ? VALUES_OF_MAYBE : [{}];
          const callers = drawn.callerOnly ? [reader] : [anonymous, reader];
          for (const variables of valuesOfMaybe) {
            for (const caller of callers) {
              const sent: Case = { seed, document, twin: twinDocument, variables, caller };
              const { twin, compiled } = await findings.compare(sent, 'text', (text) => asText(text, sent));
              // The rest once per document and values.
              if (caller !== callers[0] || variables.maybe === null) continue;
              counts.pairs += 1;
              if (meantToCompile(twin)) {
                counts.meantToCompile += 1;
                const { coerced } = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
                if (coerced && selections.compiles(document, coerced)) counts.compiled += 1;
                else findings.report(sent, 'not compiled', 'text');
                if (coerced && selections.compiles(twinDocument, coerced))
                  findings.report(sent, 'the twin compiled', 'text');
                // The service answered the written one, and only it, from its compiled SQL.
                if (compiled !== 1)
                  findings.report(sent, `${compiled} of the two answered from compiled SQL`, 'text');
              }
              if (!sendPersisted || variables !== valuesOfMaybe[0]) continue;
              // By hash alone (not found the first time), with the query, then by hash alone again.
              counts.persisted += 1;
              for (const text of [sent.document, sent.twin].filter((each) => !hashed.has(each))) {
                hashed.add(text);
                const answer = await persisted(text, sent, false);
                counts.requests += 1;
                if (answer.body.errors?.[0]?.message !== 'PersistedQueryNotFound')
                  findings.report(sent, 'an unknown hash is not refused', 'persisted, hash alone', answer);
              }
              await findings.compare(sent, 'persisted, with the query', (text) =>
                persisted(text, sent, true),
              );
              await findings.compare(sent, 'persisted, hash alone', (text) => persisted(text, sent, false));
            }
          }
        }
      }
      process.stdout.write(findings.summary(SEEDS.length));
      expect(findings.differences).toEqual([]);
      expect([...features].sort()).toEqual([...FEATURES].sort());
      // Most requests run, and most documents compile: the comparisons are of compiled answers with data.
      expect(counts.ran).toBeGreaterThan(0.9 * counts.compared);
      expect(counts.meantToCompile).toBeGreaterThan(0.8 * counts.pairs);
    },
    DIFFERENTIAL_TIMEOUT_MS,
  );
});

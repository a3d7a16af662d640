import { getHeapStatistics } from 'node:v8';
import { TITLE_SEARCH_BYTES } from './catalog/title-search';
import { type Config, ConfigError } from './config';
import { STATEMENT_TEXT_CACHE_BYTES } from './db/sql';
import { REST_STATEMENT_TEXT_BYTES } from './graphql/runner';
import { MAX_QUEUED_EVENTS, QUEUED_EVENT_BYTES } from './notifications/live/notification-feed';
import { CONNECTION_BYTES } from './notifications/live/subscription-server';

const MB = 1024 * 1024;

/**
 * The heap the service holds after start and warm-up with nothing cached: the schema,
 * the ORM's metadata, the REST door's compiled operations, the code (about 48 MB
 * measured on the demo data).
 */
const BASELINE_BYTES = 52 * MB;

/**
 * What one running request may hold at its peak: its entities, loaders and result. A
 * page of 100 novels with their genres and authors held 1.7 MB; the cost limit keeps
 * most documents well below this.
 */
const REQUEST_BYTES = 4 * MB;

/**
 * The share of the old generation the estimates may fill: the rest is garbage between
 * collections. Fuller, V8 collects ever more often and the service slows to a crawl
 * before it runs out.
 */
const FILLABLE_SHARE = 0.8;

/** The most each holder of the heap may take, in bytes, with every limit reached at once. */
export interface HeapBudget {
  baseline: number;
  /** Requests running at once (MAX_ACTIVE_REQUESTS); undefined when they are not limited. */
  requests: number | undefined;
  /** Parsed documents and their compiled plans (GRAPHQL_DOCUMENT_CACHE_MB). */
  documents: number;
  /** Automatic persisted queries' texts (GRAPHQL_PERSISTED_QUERY_CACHE_MB). */
  persistedQueries: number;
  /** The SQL texts kept for prepared statements and their placeholders. */
  statementTexts: number;
  /** The statement texts the REST door's compiled plans keep. */
  restStatementTexts: number;
  /** The catalog's text queries' matches (src/catalog/title-search.ts). */
  titleSearch: number;
  /** Open WebSocket connections (SUBSCRIPTION_MAX_CONNECTIONS). */
  connections: number;
  /** Running subscriptions with their documents (SUBSCRIPTION_MAX_MEMORY_MB). */
  subscriptions: number;
  /** Notification events waiting for slow subscribers. */
  queuedEvents: number;
}

export function heapBudget(config: Config): HeapBudget {
  return {
    baseline: BASELINE_BYTES,
    requests: config.maxActiveRequests > 0 ? config.maxActiveRequests * REQUEST_BYTES : undefined,
    documents: config.graphqlDocumentCacheBytes,
    persistedQueries: config.graphqlPersistedQueryCacheBytes,
    statementTexts: STATEMENT_TEXT_CACHE_BYTES,
    restStatementTexts: REST_STATEMENT_TEXT_BYTES,
    titleSearch: TITLE_SEARCH_BYTES,
    connections: config.subscriptions.maxConnections * CONNECTION_BYTES,
    subscriptions: config.subscriptions.maxMemoryBytes,
    queuedEvents: MAX_QUEUED_EVENTS * QUEUED_EVENT_BYTES,
  };
}

export const budgetTotal = (budget: HeapBudget): number =>
  Object.values(budget).reduce((sum: number, bytes: number | undefined) => sum + (bytes ?? 0), 0);

/**
 * The old generation's limit: `--max-old-space-size` as the process was started with it
 * (the command line wins over NODE_OPTIONS), else V8's whole heap limit.
 */
export function oldSpaceLimit(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): number {
  const sizeIn = (args: readonly string[]) =>
    args
      .map((arg) => /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(arg)?.[1])
      .filter((size) => size !== undefined)
      .at(-1);
  const size = sizeIn(execArgv) ?? sizeIn(nodeOptions.split(/\s+/));
  return size !== undefined ? Number(size) * MB : getHeapStatistics().heap_size_limit;
}

const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/**
 * Refuses to start when everything the configured limits let the heap hold at once does
 * not fit in FILLABLE_SHARE of the old generation: the process would fail later, under
 * load, out of memory. The message names the shares and what to change.
 */
export function checkHeapBudget(config: Config, limit: number = oldSpaceLimit()): HeapBudget {
  const budget = heapBudget(config);
  const total = budgetTotal(budget);
  if (total > FILLABLE_SHARE * limit) {
    const shares = Object.entries(budget)
      .flatMap(([name, bytes]: [string, number | undefined]) =>
        bytes === undefined ? [] : [`${name} ${megabytes(bytes)}`],
      )
      .join(', ');
    throw new ConfigError(
      `The configured limits let the heap hold ${megabytes(total)} (${shares}), more than ` +
        `${FILLABLE_SHARE * 100}% of the ${megabytes(limit)} old generation: lower GRAPHQL_DOCUMENT_CACHE_MB, ` +
        'GRAPHQL_PERSISTED_QUERY_CACHE_MB, SUBSCRIPTION_MAX_CONNECTIONS, SUBSCRIPTION_MAX_MEMORY_MB or ' +
        'MAX_ACTIVE_REQUESTS, or start node with a larger --max-old-space-size',
    );
  }
  return budget;
}

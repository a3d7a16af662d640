import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { ConfigError, loadConfig } from '../../src/config';
import { budgetTotal, checkHeapBudget, heapBudget, oldSpaceLimit } from '../../src/heap-budget';

const MB = 1024 * 1024;

/** The old generation `npm start` gives node (`--max-old-space-size` of its script), in bytes. */
function npmStartOldSpace(): number {
  const { scripts } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const size = /--max-old-space-size=(\d+)/.exec(scripts.start)?.[1];
  if (!size) throw new Error(`npm start sets no --max-old-space-size: ${scripts.start}`);
  return Number(size) * MB;
}

describe('the heap budget', () => {
  it("fits everything the default limits allow at once in npm start's heap, with room left to collect", () => {
    const limit = npmStartOldSpace();
    expect(() => checkHeapBudget(loadConfig({}), limit)).not.toThrow();
    // Each share is the configured limit it stands for, and the README's total is theirs.
    const budget = heapBudget(loadConfig({}));
    expect(budget).toMatchObject({
      requests: 8 * 4 * MB,
      documents: 16 * MB,
      persistedQueries: 2 * MB,
      connections: 500 * 16 * 1024,
      subscriptions: 16 * MB,
    });
    expect(Math.round(budgetTotal(budget) / MB)).toBe(137);
  });

  it('refuses to start when the limits could hold more, naming the shares and what to change', () => {
    const limit = npmStartOldSpace();
    const start = (env: Record<string, string>) => () => checkHeapBudget(loadConfig(env), limit);
    expect(start({ SUBSCRIPTION_MAX_MEMORY_MB: '64' })).toThrow(ConfigError);
    expect(start({ SUBSCRIPTION_MAX_CONNECTIONS: '5000' })).toThrow(/connections 78 MB/);
    expect(start({ GRAPHQL_DOCUMENT_CACHE_MB: '64' })).toThrow(/documents 64 MB.*--max-old-space-size/);
    expect(start({ MAX_ACTIVE_REQUESTS: '32' })).toThrow(/requests 128 MB/);
    // The same limits start with a larger heap.
    expect(() => checkHeapBudget(loadConfig({ SUBSCRIPTION_MAX_MEMORY_MB: '64' }), 4 * limit)).not.toThrow();
  });

  it('counts no share for requests when MAX_ACTIVE_REQUESTS does not limit them', () => {
    expect(heapBudget(loadConfig({ MAX_ACTIVE_REQUESTS: '0' })).requests).toBeUndefined();
  });

  it('reads the old generation from the command line, then NODE_OPTIONS, else V8', () => {
    expect(oldSpaceLimit(['--max-old-space-size=160'], '--max-old-space-size=512')).toBe(160 * MB);
    expect(oldSpaceLimit(['--enable-source-maps'], '--max_old_space_size=512 --trace-gc')).toBe(512 * MB);
    expect(oldSpaceLimit([], '')).toBe(getHeapStatistics().heap_size_limit);
  });

  it('reads the cache and live memory sizes in MB, and refuses what is not one', () => {
    const config = loadConfig({
      GRAPHQL_DOCUMENT_CACHE_MB: '8',
      GRAPHQL_PERSISTED_QUERY_CACHE_MB: '1',
      SUBSCRIPTION_MAX_MEMORY_MB: '4',
    });
    expect(config.graphqlDocumentCacheBytes).toBe(8 * MB);
    expect(config.graphqlPersistedQueryCacheBytes).toBe(MB);
    expect(config.subscriptions.maxMemoryBytes).toBe(4 * MB);
    expect(() => loadConfig({ GRAPHQL_DOCUMENT_CACHE_MB: '0' })).toThrow(/GRAPHQL_DOCUMENT_CACHE_MB/);
    expect(() => loadConfig({ SUBSCRIPTION_MAX_MEMORY_MB: 'lots' })).toThrow(/SUBSCRIPTION_MAX_MEMORY_MB/);
  });
});

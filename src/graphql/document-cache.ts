import type { DocumentStore, PersistedQueryOptions } from '@apollo/server';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { stringBytes } from '../db/sql';
import { counted, LogSummary } from '../logger';
import type { CompiledOperation, HeapReport } from './sql-plan/compile';

/**
 * What a parsed and validated document takes in the heap: its source text, and for each
 * lexical token the AST nodes, locations and the token itself that graphql-js keeps
 * (`npm run measure:heap`: 270 to 440 bytes a token on documents of 13 to 540 tokens, the
 * most for documents dense in short names), plus what every document has. Apollo's own
 * estimate (the JSON text's length) counts about a fifth of it.
 */
const DOCUMENT_BYTES = { base: 2_000, perToken: 450, perEscape: 40 };

/** The tokens of a document graphql-js parsed with locations (Apollo's and ours are). */
function tokenCount(document: DocumentNode): number {
  let count = 0;
  for (let token = document.loc?.startToken ?? null; token !== null; token = token.next) count += 1;
  return count;
}

/**
 * The backslashes of a text: graphql-js builds a string literal by appending each escape
 * to it, and V8 keeps every such append as a node of its own until the string is read
 * (34 to 38 bytes an escape measured: a 100 KB literal of `\n` holds 1.7 MB).
 */
function backslashes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', at + 1)) count += 1;
  return count;
}

/** The heap a parsed and validated document takes (see DOCUMENT_BYTES). */
export function documentBytes(document: DocumentNode): number {
  const source = document.loc?.source.body ?? '';
  const { base, perToken, perEscape } = DOCUMENT_BYTES;
  return base + stringBytes(source) + perToken * tokenCount(document) + perEscape * backslashes(source);
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** What lru-cache keeps for an entry beside its key and value. */
const ENTRY_BYTES = 128;

/** A cached document and what was compiled for it, counted together. */
class CachedDocument {
  /** The compiled plans of each of its operations (src/graphql/sql-plan). */
  readonly operations = new Map<OperationDefinitionNode, CompiledOperation>();
  bytes: number;

  constructor(
    /** Its key in the cache; undefined for a document that never went through it. */
    readonly key: string | undefined,
    readonly document: DocumentNode,
  ) {
    this.bytes = ENTRY_BYTES + documentBytes(document) + stringBytes(key ?? '');
  }
}

/** What the cache holds (its eviction warnings say it too). */
export interface CacheCounters {
  entries: number;
  bytes: number;
  maxBytes: number;
  /** Entries dropped to make room, since start. */
  evicted: number;
  /** Entries too large to be kept at all, since start. */
  refused: number;
}

/**
 * Apollo's document store (parsed and validated documents by the hash of their text,
 * for every `/graphql` request and automatic persisted query), bounded by the heap its
 * entries take rather than by their count or JSON length: each entry counts its document
 * (see documentBytes), and the plans compiled for its operations as they are compiled
 * and run, so a client sending thousands of distinct documents evicts the least recently
 * used ones instead of filling the heap. An entry larger than an eighth of the cache is
 * not kept: its document is parsed and its plans compiled again on each request.
 */
export class DocumentCache implements DocumentStore {
  private readonly entries: LRUCache<string, CachedDocument>;
  /** Each document's entry, while anything holds the document (an entry evicted mid-request included). */
  private readonly byDocument = new WeakMap<DocumentNode, CachedDocument>();
  private evicted = 0;
  private refused = 0;

  /** A warn line at most every few seconds while entries are evicted: the cache is too small for the traffic, or under attack. */
  private readonly evictions: LogSummary;

  constructor(
    readonly maxBytes: number,
    private readonly log?: Logger,
  ) {
    this.evictions = new LogSummary({
      countField: 'documents',
      message: (count, seconds) => {
        const { entries, bytes } = this.counters();
        return (
          `document cache: ${counted(count, 'document')} evicted in the last ${seconds}s; it holds ` +
          `${counted(entries, 'document')} in ${mb(bytes)} of ${mb(maxBytes)} (GRAPHQL_DOCUMENT_CACHE_MB)`
        );
      },
    });
    this.entries = new LRUCache<string, CachedDocument>({
      maxSize: maxBytes,
      maxEntrySize: Math.floor(maxBytes / 8),
      sizeCalculation: (entry) => entry.bytes,
      dispose: (_entry, _key, reason) => {
        if (reason !== 'evict') return;
        this.evicted += 1;
        this.evictions.record(this.log, 'the cache is full');
      },
    });
  }

  async get(key: string): Promise<DocumentNode | undefined> {
    return this.peek(key);
  }

  async set(key: string, document: DocumentNode): Promise<void> {
    this.keep(key, document);
  }

  /** The document kept under `key`, if it still is (as `get`, without a promise). */
  peek(key: string): DocumentNode | undefined {
    return this.entries.get(key)?.document;
  }

  /** Keeps a parsed and validated `document` under `key` (as `set`, without a promise). */
  keep(key: string, document: DocumentNode): void {
    const entry = new CachedDocument(key, document);
    this.byDocument.set(document, entry);
    this.store(entry, key);
  }

  async delete(key: string): Promise<boolean> {
    return this.entries.delete(key);
  }

  /**
   * The compiled form of `operation`, made by `compile` on first use and kept, and counted,
   * with its document while the document stays cached. `compile` is given where to report
   * the heap its plans take.
   */
  compiled(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    compile: (onHeld: HeapReport) => CompiledOperation,
  ): CompiledOperation {
    let entry = this.byDocument.get(document);
    if (!entry) {
      // Not through Apollo's store (a test's own document): counted from now on.
      entry = new CachedDocument(undefined, document);
      this.byDocument.set(document, entry);
    }
    let compiled = entry.operations.get(operation);
    if (!compiled) {
      const owner = entry;
      compiled = compile((bytes) => this.grow(owner, bytes));
      entry.operations.set(operation, compiled);
    }
    return compiled;
  }

  counters(): CacheCounters {
    return {
      entries: this.entries.size,
      bytes: this.entries.calculatedSize,
      maxBytes: this.maxBytes,
      evicted: this.evicted,
      refused: this.refused,
    };
  }

  /** Counts `bytes` more (or fewer) for `entry`, evicting others, or the entry itself, to stay within bounds. */
  private grow(entry: CachedDocument, bytes: number): void {
    entry.bytes += bytes;
    if (entry.key !== undefined && this.entries.peek(entry.key) === entry) this.store(entry, entry.key);
  }

  private store(entry: CachedDocument, key: string): void {
    // lru-cache keeps an entry's size when the same value is set again: it goes first.
    this.entries.delete(key);
    if (entry.bytes > this.entries.maxEntrySize) {
      this.refused += 1;
      return;
    }
    this.entries.set(key, entry, { size: entry.bytes });
  }
}

type TextStore = NonNullable<PersistedQueryOptions['cache']>;

/**
 * Apollo's store of automatic persisted queries (document texts by their hash), bounded
 * by the heap the texts and their keys take: Apollo's default counts a text's characters
 * only, and a small text costs more in keys and bookkeeping than in characters.
 */
export class PersistedQueryTexts implements TextStore {
  private readonly texts: LRUCache<string, string>;

  constructor(readonly maxBytes: number) {
    this.texts = new LRUCache<string, string>({
      maxSize: maxBytes,
      maxEntrySize: Math.floor(maxBytes / 8),
      sizeCalculation: (text, key) => ENTRY_BYTES + stringBytes(key) + stringBytes(text),
    });
  }

  async get(key: string): Promise<string | undefined> {
    return this.texts.get(key);
  }

  async set(key: string, text: string, options?: { ttl?: number | null }): Promise<void> {
    this.texts.set(key, text, options?.ttl ? { ttl: options.ttl * 1000 } : undefined);
  }

  async delete(key: string): Promise<boolean> {
    return this.texts.delete(key);
  }

  counters(): Pick<CacheCounters, 'entries' | 'bytes' | 'maxBytes'> {
    return { entries: this.texts.size, bytes: this.texts.calculatedSize, maxBytes: this.maxBytes };
  }
}

import { createHash } from 'node:crypto';
import type { ConnectionType } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import type { QueryResultRow } from 'pg';
import { ReplicaConnection } from './replicas';
import { statementPoolOf } from './statement-pool';

/** A piece of SQL with `?` placeholders and their values, in order; an array value fills `(?)` as a list. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

export const sql = (text: string, ...params: unknown[]): SqlFragment => ({ sql: text, params });

/** The fragments joined by `separator`, each in parentheses; no fragment at all is `true`. */
export function joinSql(fragments: readonly SqlFragment[], separator = ' and '): SqlFragment {
  if (fragments.length === 0) return sql('true');
  return {
    sql: fragments.map((f) => `(${f.sql})`).join(separator),
    params: fragments.flatMap((f) => f.params),
  };
}

/** The fragments one after another, as written. */
export function concatSql(...fragments: readonly (SqlFragment | string)[]): SqlFragment {
  return {
    sql: fragments.map((f) => (typeof f === 'string' ? f : f.sql)).join(''),
    params: fragments.flatMap((f) => (typeof f === 'string' ? [] : f.params)),
  };
}

/**
 * The texts of statements built from pieces, one per key naming the pieces that vary:
 * a hot statement is then the same string every time, whose hash and placeholders
 * (see {@link numbered}) and prepared statement are found without reading it again.
 * Kept in a map of its own, each reported to `onHeld` (at most STATEMENT_TEXTS, then
 * forgotten together), or in a store shared with others ({@link SharedTexts}).
 */
export class StatementTexts {
  private readonly texts = new Map<string, string>();
  /** The bytes the texts kept in its own map take. */
  private held = 0;
  /** Its keys' prefix in the shared store. */
  private readonly owner: string;

  constructor(private readonly account: TextAccount = {}) {
    this.owner = account.shared?.owner() ?? '';
  }

  /** {@link concatSql}, its text taken from the last one built under `key`. */
  concat(key: string, ...fragments: readonly (SqlFragment | string)[]): SqlFragment {
    const params = fragments.flatMap((f) => (typeof f === 'string' ? [] : f.params));
    const { shared } = this.account;
    const kept = shared ? shared.get(this.owner + key) : this.texts.get(key);
    if (kept !== undefined) return { sql: kept, params };
    const text = concatSql(...fragments).sql;
    if (shared) shared.set(this.owner + key, text);
    else this.keep(key, text);
    return { sql: text, params };
  }

  private keep(key: string, text: string): void {
    if (this.texts.size >= STATEMENT_TEXTS) {
      this.texts.clear();
      this.account.onHeld?.(-this.held);
      this.held = 0;
    }
    this.texts.set(key, text);
    const bytes = stringBytes(key) + stringBytes(text);
    this.held += bytes;
    this.account.onHeld?.(bytes);
  }
}

/** Where a {@link StatementTexts} keeps its texts and accounts for them. */
export interface TextAccount {
  /** Told of the bytes each text kept takes, and of those freed when they are forgotten. */
  onHeld?: (bytes: number) => void;
  /** A store shared with others, instead of a map of its own. */
  shared?: SharedTexts;
}

/**
 * The statement texts of many {@link StatementTexts} in one store bounded by the heap
 * they take, the least recently used forgotten first: hot statements stay kept whatever
 * else comes and goes.
 */
export class SharedTexts {
  private readonly texts: LRUCache<string, string>;
  private owners = 0;

  constructor(readonly maxBytes: number) {
    this.texts = new LRUCache<string, string>({
      maxSize: maxBytes,
      sizeCalculation: (text, key) => ENTRY_BYTES + stringBytes(key) + stringBytes(text),
    });
  }

  /** A prefix of keys of one's own. */
  owner(): string {
    this.owners += 1;
    return `${this.owners}\0`;
  }

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  set(key: string, text: string): void {
    this.texts.set(key, text);
  }
}

/** What lru-cache keeps for an entry beside its key and value. */
const ENTRY_BYTES = 128;

/**
 * About what a string takes in V8's heap: a header, then a byte a character when every
 * character is Latin-1 (SQL and GraphQL names are), else two.
 */
export const stringBytes = (text: string): number => 24 + (TWO_BYTE.test(text) ? 2 : 1) * text.length;

/** A character beyond Latin-1, which makes V8 store the whole string two bytes a character. */
const TWO_BYTE = /[\u0100-\uffff]/;

/** Texts kept per statement builder: filters combine in many ways, but the hot ones are few. */
const STATEMENT_TEXTS = 256;

/**
 * An integer that no `integer` parameter can hold: PostgreSQL types a parameter compared
 * with an integer column as `integer` and would refuse it, so it is written as a numeric
 * literal, which compares as a number (`year >= 3000000000` is simply false).
 */
const isBeyondInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && (value > 2147483647 || value < -2147483648);

/**
 * PostgreSQL's numbered placeholders for `?` (outside quoted literals and identifiers),
 * an array value becoming one placeholder per element, as knex binds them.
 */
export function numbered({ sql: text, params }: SqlFragment): { text: string; values: unknown[] } {
  const placeholders = placeholdersOf(text);
  const { segments } = placeholders;
  if (segments.length - 1 !== params.length)
    throw new Error(`SQL has ${segments.length - 1} placeholders for ${params.length} values`);
  // One value per placeholder: the same text every time (and the same string, whose hash
  // the prepared-statement look-up then reuses).
  if (!params.some((value) => Array.isArray(value) || isBeyondInteger(value))) {
    placeholders.plain ??= segments.reduce((out, segment, i) => `${out}$${i}${segment}`);
    return { text: placeholders.plain, values: params };
  }
  const values: unknown[] = [];
  let out = segments[0];
  params.forEach((value, i) => {
    const list = Array.isArray(value) ? value : [value];
    out += list.map((item) => (isBeyondInteger(item) ? String(item) : `$${values.push(item)}`)).join(', ');
    out += segments[i + 1];
  });
  return { text: out, values };
}

/** A text split at its placeholders, and its numbered form for one value per placeholder. */
interface Placeholders {
  segments: string[];
  plain?: string;
}

/**
 * Kept for the texts seen most: hot statements repeat. Bounded by the heap the texts
 * take (a compiled document's statement can be tens of kilobytes): the text, twice at
 * most for its segments (V8 keeps a slice of 13 characters or more as a reference into
 * the text, and copies shorter ones), and each segment's own object.
 */
const PLACEHOLDER_CACHE_BYTES = 1024 * 1024;
const placeholderCache = new LRUCache<string, Placeholders>({
  maxSize: PLACEHOLDER_CACHE_BYTES,
  sizeCalculation: (placeholders, text) => 2 * stringBytes(text) + 32 * placeholders.segments.length,
});

function placeholdersOf(text: string): Placeholders {
  const cached = placeholderCache.get(text);
  if (cached) return cached;
  const segments: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '?') {
      segments.push(text.slice(start, i));
      start = i + 1;
    }
  }
  segments.push(text.slice(start));
  const placeholders = { segments };
  placeholderCache.set(text, placeholders);
  return placeholders;
}

/**
 * Every connection keeps its prepared statements until it closes; texts built from
 * filters vary, so only this many distinct texts are prepared, the first ones seen, and
 * only while they take at most PREPARED_TEXT_BYTES in all. Each connection's driver
 * keeps the text of every statement it prepared: it is given the one string kept here,
 * so that the connections share it.
 */
const MAX_PREPARED_TEXTS = 64;
const PREPARED_TEXT_BYTES = 1024 * 1024;
const prepared = new Map<string, { name: string; text: string }>();
let preparedBytes = 0;

/** The most the SQL texts kept for placeholders and prepared statements take in the heap. */
export const STATEMENT_TEXT_CACHE_BYTES = PLACEHOLDER_CACHE_BYTES + PREPARED_TEXT_BYTES;

function preparedStatement(text: string): { name?: string; text: string } {
  const statement = prepared.get(text);
  if (statement || prepared.size >= MAX_PREPARED_TEXTS) return statement ?? { text };
  const bytes = stringBytes(text);
  if (preparedBytes + bytes > PREPARED_TEXT_BYTES) return { text };
  const name = `prepared_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  prepared.set(text, { name, text });
  preparedBytes += bytes;
  return { name, text };
}

/**
 * Runs a read with pg's pool beside the entity manager's (a replica's, for `type` `read`;
 * see ./statement-pool.ts), as a named prepared statement (parsed and planned once per
 * connection, PostgreSQL then reusing a generic plan where it pays): for the hot reads
 * of compiled operations. Logged like MikroORM's own statements (the tests count them).
 * Not for work inside the request's transaction, which holds its own connection.
 */
export async function queryRows<Row extends QueryResultRow>(
  em: EntityManager,
  statement: SqlFragment,
  type: ConnectionType = 'write',
): Promise<Row[]> {
  const numberedStatement = numbered(statement);
  const { values } = numberedStatement;
  const { name, text } = preparedStatement(numberedStatement.text);
  const run = async (on: PostgreSqlConnection): Promise<Row[]> => {
    const started = Date.now();
    const { rows } = await statementPoolOf(on).query<Row>({ name, text, values });
    em.config
      .getLogger()
      .logQuery({ query: text, took: Date.now() - started, results: rows.length, level: 'info' });
    return rows;
  };
  const connection = em.getConnection(type) as PostgreSqlConnection;
  return connection instanceof ReplicaConnection ? connection.orPrimary(run) : run(connection);
}

/**
 * `write` (an insert, update or delete with `returning`) and `effects` (the writes that go
 * with it: counters, an action record) as one statement of common table expressions, so
 * a write costs one round trip; answers `write`'s first returned row. Every part sees the
 * same snapshot: an effect must not depend on what another part writes.
 */
export async function writeWithEffects(
  em: EntityManager,
  write: SqlFragment,
  effects: readonly SqlFragment[],
): Promise<Record<string, unknown> | undefined> {
  const statement = withEffects(write, effects);
  const [row] = await em.execute<Record<string, unknown>[]>(statement.sql, statement.params);
  return row;
}

/** The statement {@link writeWithEffects} sends: `write`'s rows, with `effects` written beside it. */
export function withEffects(write: SqlFragment, effects: readonly SqlFragment[]): SqlFragment {
  return concatSql(
    'with written as (',
    write,
    ')',
    ...effects.flatMap((effect, i) => [`, effect_${i} as (`, effect, ')']),
    ' select * from written',
  );
}

/**
 * Runs `statements` one after another in one round trip (PostgreSQL's simple protocol
 * takes several statements in one message; their values are written into the text, as
 * for every raw statement), answering each one's rows. Unlike the parts of one statement
 * ({@link writeWithEffects}), each sees what the ones before it wrote, and they take
 * their row locks in the order given. The first failure ends the rest: it aborts the
 * transaction they run in (outside one, PostgreSQL runs them as one, all or none).
 * A transaction's later statements go here when nothing decided in between needs their
 * outcome, so that locks are held, and the connection kept, for fewer round trips.
 */
export async function executeInOrder(
  em: EntityManager,
  statements: readonly SqlFragment[],
): Promise<Record<string, unknown>[][]> {
  if (statements.length === 0) return [];
  const batch = concatSql(
    ...statements.flatMap((statement, i) => (i === 0 ? [statement] : [';\n', statement])),
  );
  const rows = await em.execute<Record<string, unknown>[] | Record<string, unknown>[][]>(
    batch.sql,
    batch.params,
  );
  // pg answers a single statement with its result, several with one result each.
  return statements.length === 1
    ? [rows as Record<string, unknown>[]]
    : (rows as Record<string, unknown>[][]);
}

/** The statements of a text {@link executeInOrder} sent (as sent, or as logged), to count or name them. */
export const statementsInOrder = (text: string): string[] =>
  text.split(/;\s*(?=(?:with|select|insert|update|delete) )/);

import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import {
  databaseCause,
  isDatabaseUnavailable,
  isTransactionConflict,
  outageReport,
} from '../../db/unavailable';
import { queryLimitErrorOf } from './query-limit-error';
import { requestScope, type RequestScope } from '../request-scope';
import { AppError, type Language } from './app-error';

/** The REST error body: `{message, code}` and nothing else. */
export interface ErrorBody {
  message: string;
  code: string;
}

/** The request an unexpected error is logged for: its id and logger. */
export type ErrorScope = Pick<RequestScope, 'requestId' | 'log'>;

/**
 * Any thrown value as an AppError. An unreachable database is `system:unavailable`,
 * counted in the outage summary instead of logged with a stack. So is a transaction
 * PostgreSQL aborted for a deadlock or serialization failure, logged in one line (a
 * mutation runs again a few times before it answers so: src/graphql/database-plugin.ts).
 * Other unknown failures are logged with the request id and masked as
 * `system:internal_error`, so no internal detail reaches the client. `scope` is the request's context, passed along
 * on REST and by subscriptions; on `/graphql` it defaults to the request scope Apollo
 * runs in.
 */
export function asAppError(
  error: unknown,
  scope: ErrorScope | undefined = requestScope.getStore(),
): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    // Without a request, each failure counts on its own.
    outageReport.record(scope?.log, databaseCause(error), scope?.requestId);
    return new AppError('system:unavailable');
  }
  if (isTransactionConflict(error)) {
    scope?.log.warn({ requestId: scope.requestId, cause: databaseCause(error) }, 'transaction conflict');
    return new AppError('system:unavailable');
  }
  scope?.log.error({ err: error, requestId: scope.requestId }, 'unexpected error');
  return new AppError('system:internal_error');
}

export function errorBody(error: AppError, language: Language): ErrorBody {
  return { message: error.message_in(language), code: error.code };
}

// Apollo's codes for the documents and requests it refuses before execution.
const REFUSAL_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/**
 * The HTTP status of a request graphql-js or Apollo refused before running anything (a
 * document that does not parse or validate, an unknown operation, a missing body, an
 * unsupported persisted-query version, a mutation over GET), or undefined when `error`
 * is no such refusal. Refusals are GraphQLErrors, possibly wrapping one another, with
 * no field path (resolver errors have one) and no underlying failure of this service,
 * or an error Apollo marked with one of its refusal codes.
 */
function refusalStatus(error: unknown, apolloCode: unknown): number | undefined {
  let status: unknown;
  let current: unknown = error;
  for (let hops = 0; current instanceof GraphQLError && hops < 4; hops += 1) {
    if (current.path !== undefined) return undefined;
    status ??= (current.extensions.http as { status?: unknown } | undefined)?.status;
    current = current.originalError;
  }
  if (current !== undefined && !(typeof apolloCode === 'string' && REFUSAL_CODES.has(apolloCode)))
    return undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 400;
}

/** The AppError behind a GraphQL error raised before execution (its `originalError` chain), if any. */
function appErrorIn(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let hops = 0; current instanceof Error && hops < 4; hops += 1) {
    if (current instanceof AppError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/**
 * What a GraphQL error stands for, before any mapping: a query limit, the AppError a
 * resolver or check threw, else the underlying failure a resolver met.
 */
export function originalErrorOf(error: unknown): unknown {
  return queryLimitErrorOf(error) ?? appErrorIn(error) ?? unwrapResolverError(error);
}

/**
 * The AppError a GraphQL error stands for: a query limit, the AppError a resolver or
 * check threw, else {@link asAppError} of the underlying failure.
 */
export function appErrorOf(error: unknown, scope?: ErrorScope): AppError {
  return asAppError(originalErrorOf(error), scope);
}

/**
 * Apollo's `formatError`: every GraphQL error gets the catalog `code` in
 * `extensions.code` and the status the equivalent REST call would answer in
 * `extensions.http.status`. Requests refused before execution keep graphql-js's (or
 * Apollo's) message: `system:validation_error` with HTTP 400 (or Apollo's own 4xx),
 * `system:method_not_allowed` for a mutation sent over GET. `scope` (the message
 * language, and where an unexpected error is logged) is the request scope on `/graphql`;
 * subscriptions pass their context.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  scope: RequestScope | undefined = requestScope.getStore(),
): GraphQLFormattedError {
  const original = originalErrorOf(error);
  const refused = original instanceof AppError ? undefined : refusalStatus(error, formatted.extensions?.code);
  if (refused !== undefined) {
    const code = refused === 405 ? 'system:method_not_allowed' : 'system:validation_error';
    return {
      message: formatted.message,
      locations: formatted.locations,
      extensions: { code, http: { status: refused } },
    };
  }
  const appError = asAppError(original, scope);
  const language = scope?.language ?? 'en';
  return {
    message: appError.message_in(language),
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: appError.code, http: { status: appError.status } },
  };
}

import { randomUUID } from 'node:crypto';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isDatabaseUnavailable, outageReport } from '../../db/unavailable';
import { queryLimitErrorOf } from '../../graphql/limits';
import { requestScope } from '../request-scope';
import { AppError, type Language } from './app-error';

/** The REST error body: `{message, code}` and nothing else. */
export interface ErrorBody {
  message: string;
  code: string;
}

/**
 * Any thrown value as an AppError. An unreachable database is `system:unavailable`,
 * counted in the outage summary instead of logged with a stack; other unknown failures
 * are logged with the request id and masked as `system:internal_error`, so no
 * internal detail reaches the client.
 */
export function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const scope = requestScope.getStore();
  if (isDatabaseUnavailable(error)) {
    outageReport.record(scope?.log, error, scope?.requestId ?? randomUUID());
    return new AppError('system:unavailable');
  }
  scope?.log.error({ err: error, requestId: scope.requestId }, 'unexpected error');
  return new AppError('system:internal_error');
}

export function errorBody(error: AppError, language: Language): ErrorBody {
  return { message: error.message_in(language), code: error.code };
}

/**
 * Whether graphql-js or Apollo refused the request itself before running anything: a
 * document that does not parse or validate, an unknown operation, a missing body, an
 * unsupported persisted-query version. Such errors are GraphQLErrors (possibly wrapping
 * one another) that carry neither a field path (resolver errors do) nor an underlying
 * error of another kind (failures of this service do).
 */
function isRequestRefusal(error: unknown): boolean {
  let current: unknown = error;
  // Apollo wraps graphql-js's refusals in its own classes (originalError: the refusal).
  for (let hops = 0; current instanceof GraphQLError && hops < 4; hops += 1) {
    if (current.path !== undefined) return false;
    current = current.originalError;
  }
  return current === undefined;
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
 * Apollo's `formatError`: every GraphQL error gets the catalog `code` in
 * `extensions.code` and the status the equivalent REST call would answer in
 * `extensions.http.status`. Requests refused before execution keep graphql-js's (or
 * Apollo's) message: `system:validation_error`, HTTP 400.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = queryLimitErrorOf(error) ?? appErrorIn(error) ?? unwrapResolverError(error);
  if (!(original instanceof AppError) && isRequestRefusal(error)) {
    return {
      message: formatted.message,
      locations: formatted.locations,
      extensions: { code: 'system:validation_error', http: { status: 400 } },
    };
  }
  const appError = asAppError(original);
  const language = requestScope.getStore()?.language ?? 'en';
  return {
    message: appError.message_in(language),
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: appError.code, http: { status: appError.status } },
  };
}

import { randomUUID } from 'node:crypto';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
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

// Apollo's own codes for documents it refuses before execution (HTTP 400).
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/**
 * Apollo's `formatError`: every GraphQL error gets the catalog `code` in
 * `extensions.code` and the status the equivalent REST call would answer in
 * `extensions.http.status`. Documents refused before execution keep graphql-js's message.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = queryLimitErrorOf(error) ?? unwrapResolverError(error);
  const apolloCode = formatted.extensions?.code;
  if (
    !(original instanceof AppError) &&
    typeof apolloCode === 'string' &&
    REQUEST_ERROR_CODES.has(apolloCode)
  ) {
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

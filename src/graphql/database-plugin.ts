import {
  type ApolloServerPlugin,
  type GraphQLRequestContextExecutionDidStart,
  HeaderMap,
} from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { asAppError, formatGraphQLError } from '../common/errors/render';
import type { RequestContext, RequestTransaction } from '../context';
import { RETRY_AFTER_SECONDS } from '../db/unavailable';

type Settled = Pick<GraphQLRequestContextExecutionDidStart<RequestContext>, 'contextValue' | 'response'>;

/** `error` (a failed begin or commit) as the catalog error it means: unavailable or internal. */
function formatted(error: unknown, ctx: RequestContext): GraphQLFormattedError {
  const appError = asAppError(error, ctx);
  return formatGraphQLError({ message: appError.message }, appError);
}

/**
 * Ends a request's transaction once its whole response has been resolved: rolled back
 * when a server failure (internal, unavailable: an error the client could not have
 * avoided) left it incomplete, committed otherwise, business-rule errors included (each
 * service rolled its own savepoint back). Throws when the commit fails.
 */
export async function settleTransaction(
  transaction: RequestTransaction,
  errors: readonly { status: number }[],
): Promise<'committed' | 'rolled back'> {
  if (errors.some((error) => error.status >= 500)) {
    await transaction.rollback();
    return 'rolled back';
  }
  await transaction.commit();
  return 'committed';
}

/** The HTTP status a formatted error carries (formatGraphQLError sets it on every error). */
function statusOf(error: GraphQLFormattedError): { status: number } {
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return { status: typeof status === 'number' ? status : 500 };
}

/** Settles a `/graphql` mutation; a rollback empties the data, a failed commit replaces the response. */
async function settle({ contextValue, response }: Settled): Promise<void> {
  const result = response.body?.kind === 'single' ? response.body.singleResult : undefined;
  if (!result) {
    await contextValue.transaction.rollback();
    return;
  }
  try {
    const outcome = await settleTransaction(contextValue.transaction, (result.errors ?? []).map(statusOf));
    if (outcome === 'rolled back')
      response.body = { kind: 'single', singleResult: { ...result, data: null } };
  } catch (error) {
    response.body = {
      kind: 'single',
      singleResult: { data: null, errors: [formatted(error, contextValue)] },
    };
  }
}

/**
 * The database's part in every `/graphql` operation (REST routes run theirs through
 * src/graphql/runner.ts, which does the same):
 * - a mutation runs in one transaction on the request's entity manager, begun before
 *   the first root field and committed only after the response is resolved, so that a
 *   write is answered as a success exactly when it committed (and one answered 408
 *   never commits); each of its root fields starts with empty DataLoaders;
 * - a response whose only errors are `system:unavailable` answers HTTP 503 with
 *   `Retry-After`, as REST does.
 */
export function databasePlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        // The last hook before execution that may answer instead of it: a transaction
        // that cannot begin means the database cannot be reached.
        async responseForOperation({ operation, contextValue }) {
          // No operation (unknown or ambiguous name): Apollo answers that refusal itself.
          if (!operation) return null;
          contextValue.chooseReads(operation.operation);
          if (operation.operation !== 'mutation') return null;
          try {
            await contextValue.transaction.begin();
            return null;
          } catch (error) {
            return {
              http: { status: undefined, headers: new HeaderMap() },
              body: { kind: 'single', singleResult: { errors: [formatted(error, contextValue)] } },
            };
          }
        },
        async executionDidStart(requestContext) {
          if (!requestContext.contextValue.transaction.open) return;
          let rootFields = 0;
          return {
            willResolveField({ info }) {
              // A later root field must not answer from what an earlier one loaded.
              if (info.path.prev === undefined && (rootFields += 1) > 1) {
                requestContext.contextValue.forgetLoaded();
              }
            },
            // With an error execution threw and Apollo answers with it: nothing to keep.
            async executionDidEnd(error) {
              if (error) await requestContext.contextValue.transaction.rollback();
              else await settle(requestContext);
            },
          };
        },
        async willSendResponse({ response }) {
          const errors = response.body?.kind === 'single' ? response.body.singleResult.errors : undefined;
          if (errors?.length && errors.every((error) => error.extensions?.code === 'system:unavailable')) {
            response.http.status = 503;
            response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
          }
        },
      };
    },
  };
}

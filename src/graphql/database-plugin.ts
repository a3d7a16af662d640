import { type ApolloServerPlugin, type GraphQLResponse, HeaderMap } from '@apollo/server';
import {
  execute,
  type ExecutionResult,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getVariableValues,
  type OperationDefinitionNode,
} from 'graphql';
import { AppError } from '../common/errors/app-error';
import { asAppError, formatGraphQLError, originalErrorOf } from '../common/errors/render';
import type { RequestContext } from '../context';
import { isTransactionConflict, RETRY_AFTER_SECONDS } from '../db/unavailable';
import type { CompiledQueries } from './compiled-queries';

/**
 * How many times a mutation runs at most when PostgreSQL aborts its transaction to
 * resolve a deadlock or a serialization failure; after that it answers 503.
 */
export const MUTATION_ATTEMPTS = 4;

/** A short random pause before attempt `attempt`, growing with each, so that the conflicting transactions drift apart. */
function pauseBefore(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * (attempt - 1)));
}

/** A failure the client could not have avoided (internal, unavailable): it leaves the transaction incomplete. */
function isServerFailure(error: GraphQLError): boolean {
  const original = originalErrorOf(error);
  return !(original instanceof AppError) || original.status >= 500;
}

const isConflict = (error: GraphQLError): boolean => isTransactionConflict(originalErrorOf(error));

/**
 * Runs a mutation (`execute`, graphql-js's execution of its document) in the request's
 * one transaction, whatever the door (REST routes, `/graphql`):
 * - begun before the first root field and committed only after the whole result is
 *   resolved, so that a write is answered as a success exactly when it committed (and
 *   one answered 408 never commits);
 * - with one root field (every REST write), that field's service runs its transaction
 *   as this one: no savepoints, and the field's failure rolls everything back. With
 *   several, services' own transactions are savepoints in it, and business-rule errors
 *   commit what the other fields did (each service rolled its own savepoint back);
 * - rolled back when an error the client could not have avoided left it incomplete
 *   (the result's `data` is then null);
 * - run again from the start, on a fresh entity manager, when PostgreSQL aborted one of
 *   its statements for a deadlock or a serialization failure, at most
 *   {@link MUTATION_ATTEMPTS} times: what the last attempt answers then maps to 503
 *   `system:unavailable`. (At READ COMMITTED, with no deferred constraints, a commit
 *   itself meets no such conflict.)
 * Throws the AppError of a transaction that could not begin or commit, or whose
 * connection was lost.
 */
export async function executeMutation(
  ctx: RequestContext,
  operation: OperationDefinitionNode,
  execute: () => Promise<ExecutionResult> | ExecutionResult,
): Promise<ExecutionResult> {
  const joined = operation.selectionSet.selections.length === 1;
  for (let attempt = 1; ; attempt += 1) {
    if (attempt > 1) {
      ctx.restart();
      await pauseBefore(attempt);
    }
    await ctx.auth.lookUpAhead();
    try {
      await ctx.transaction.begin({ joined });
    } catch (error) {
      throw asAppError(error, ctx);
    }
    let result: ExecutionResult;
    try {
      result = await execute();
    } catch (error) {
      await ctx.transaction.rollback();
      throw error;
    }
    const errors = result.errors ?? [];
    const failed = errors.some(isServerFailure);
    // A joined root field that failed may have written part of its work.
    const rootFailed = joined && errors.some((error) => error.path?.length === 1);
    if (!failed && !rootFailed) {
      try {
        await ctx.transaction.commit();
        return result;
      } catch (error) {
        throw asAppError(error, ctx);
      }
    }
    await ctx.transaction.rollback();
    if (ctx.transaction.lostConnection !== undefined) throw asAppError(ctx.transaction.lostConnection, ctx);
    if (!failed) return result;
    // Not once the request was answered 408: nothing of it may commit any more.
    const mayRetry = attempt < MUTATION_ATTEMPTS && !ctx.transaction.timedOut;
    if (mayRetry && errors.some(isConflict)) continue;
    return { ...result, data: null };
  }
}

/**
 * Makes every root field of a mutation start with empty DataLoaders: the fields run one
 * after another, and each answers as it would alone (what an earlier one loaded may have
 * changed since, by its own write or the one before). Wraps the Mutation type's
 * resolvers once, when the app is built.
 */
export function forgetLoadedBeforeMutationFields(schema: GraphQLSchema): void {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve = field.resolve;
    if (!resolve) continue;
    field.resolve = (source, args, context: RequestContext, info) => {
      context.forgetLoaded();
      return resolve(source, args, context, info);
    };
  }
}

/** `errors` formatted as Apollo formats them, with the HTTP status their `extensions.http` ask for. */
function graphqlResponse(
  data: ExecutionResult['data'],
  errors: readonly GraphQLError[] | undefined,
  ctx: RequestContext,
): GraphQLResponse {
  let status: number | undefined;
  const formatted = errors?.map((error): GraphQLFormattedError => {
    const { http, ...extensions } = error.extensions;
    const requested = (http as { status?: unknown } | undefined)?.status;
    if (typeof requested === 'number') status = requested;
    return formatGraphQLError({ ...error.toJSON(), extensions }, error, ctx);
  });
  return {
    http: { status, headers: new HeaderMap() },
    body: { kind: 'single', singleResult: formatted ? { data, errors: formatted } : { data } },
  };
}

/**
 * The database's part in every `/graphql` operation: a query whose selection compiles
 * is answered from its SQL plan, as REST's reads are; a mutation runs through
 * {@link executeMutation}, as REST's do (src/graphql/runner.ts), and its result is the
 * response; a response whose only errors are `system:unavailable` answers HTTP 503 with
 * `Retry-After`, as REST does.
 */
export function databasePlugin(compiled: CompiledQueries): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        // The last hook before execution that may answer instead of it.
        async responseForOperation({ operation, contextValue, schema, document, request }) {
          // No operation (unknown or ambiguous name): Apollo answers that refusal itself.
          if (!operation) return null;
          contextValue.chooseReads(operation.operation);
          if (operation.operation === 'query')
            return compiled.respond(schema, document, operation, request.variables ?? {}, contextValue);
          if (operation.operation !== 'mutation') return null;
          // Variables graphql-js cannot coerce touch no data: Apollo refuses them as for any operation.
          if (getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {}).errors)
            return null;
          try {
            const result = await executeMutation(contextValue, operation, () =>
              execute({
                schema,
                document,
                operationName: request.operationName,
                variableValues: request.variables,
                contextValue,
              }),
            );
            return graphqlResponse(result.data, result.errors, contextValue);
          } catch (error) {
            const appError = asAppError(error, contextValue);
            return graphqlResponse(
              null,
              [new GraphQLError(appError.message, { originalError: appError })],
              contextValue,
            );
          }
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

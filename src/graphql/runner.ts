import type { MetadataStorage } from '@mikro-orm/core';
import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
} from 'graphql';
import { AppError } from '../common/errors/app-error';
import { appErrorOf, type ErrorScope } from '../common/errors/render';
import { SIZE_MAX } from '../common/pagination/pagination';
import { SharedTexts } from '../db/sql';
import type { RequestContext } from '../context';
import { executeMutation } from './database-plugin';
import { queryLimitErrorOf } from '../common/errors/query-limit-error';
import { type GraphQLLimits, operationCost } from './limits';
import { OperationChecks } from './preparation';
import { checkedVariables, checkVariables } from './request-checks';
import { CompiledOperation } from './sql-plan/compile';
import { sqlFormsOf } from './sql-plan/fields';

/** The most the REST door's compiled plans keep in statement texts (src/heap-budget.ts counts it). */
export const REST_STATEMENT_TEXT_BYTES = 2 * 1024 * 1024;

/**
 * A persisted operation, prepared once when the app starts: parsed, validated with the
 * limits every `/graphql` document meets, its worst-case cost known, and compiled to one
 * SQL statement where its whole selection can be (src/graphql/sql-plan).
 */
export interface PreparedOperation {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly rootField: string;
  /** Cost at the largest page size; per-request costs are only measured when this exceeds the limit. */
  readonly worstCost: number;
  /** Why every run is refused (a limit the configuration sets below what the document needs). */
  readonly refusal?: AppError;
  /** Its plans, for a query whose root field has a SQL form (src/graphql/sql-plan). */
  readonly compiled?: CompiledOperation;
}

/**
 * Runs persisted GraphQL operations for the REST facade without Apollo's per-request
 * pipeline, with the same checks and the same database rules as `/graphql` (variables
 * checked as there, one transaction per mutation, errors as the catalog's AppErrors).
 */
export class OperationRunner {
  constructor(
    readonly schema: GraphQLSchema,
    limits: GraphQLLimits,
    /** The ORM's entity metadata: the columns compiled operations read. */
    private readonly metadata: MetadataStorage,
  ) {
    this.checks = new OperationChecks(limits);
  }

  /** The checks every door makes (src/graphql/preparation.ts). */
  private readonly checks: OperationChecks;

  /**
   * The statement texts of every route's plans, in one store bounded by their heap: a
   * page's text varies with its size, filters and sort, so each route could otherwise
   * keep hundreds; the least recently used go first, so the hot ones stay.
   */
  private readonly texts = new SharedTexts(REST_STATEMENT_TEXT_BYTES);

  /** Prepares a document of exactly one operation with one root field; throws when it is not valid GraphQL. */
  prepare(source: string, rootField: string): PreparedOperation {
    const checked = this.checks.document(this.schema, source);
    let refusal: AppError | undefined;
    for (const error of checked.errors ?? []) {
      const limit = queryLimitErrorOf(error);
      if (!limit) throw new Error(`Persisted operation for ${rootField} is not valid: ${error.message}`);
      refusal ??= limit;
    }
    // A document the configured limits refuse is still read: each run is refused as /graphql would.
    const document = checked.document ?? parse(source);
    const operation = getOperationAST(document);
    if (!operation) throw new Error(`Persisted operation for ${rootField} must hold exactly one operation`);
    const worstCost = operationCost(this.schema, document, operation, { size: SIZE_MAX });
    const compiled =
      !refusal && operation.operation === 'query' && sqlFormsOf(this.schema).rootOf(rootField)
        ? new CompiledOperation(this.schema, document, operation, this.metadata, { shared: this.texts })
        : undefined;
    return { document, operation, rootField, worstCost, refusal, compiled };
  }

  /** The root field's value as JSON text; throws the AppError the request is answered with. */
  async run(
    prepared: PreparedOperation,
    variables: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<string> {
    if (prepared.refusal) throw prepared.refusal;
    if (prepared.compiled) {
      const coerced = this.coerce(prepared, variables, ctx);
      this.checkCost(prepared, variables, ctx);
      const [json] = (await prepared.compiled.planFor(coerced)?.run(ctx, coerced)) ?? [];
      if (json !== undefined) return json;
    } else {
      try {
        checkVariables(this.schema, prepared.document, prepared.operation, variables);
      } catch (error) {
        throw appErrorOf(error, ctx);
      }
      this.checkCost(prepared, variables, ctx);
    }
    const run = () =>
      execute({
        schema: this.schema,
        document: prepared.document,
        variableValues: variables,
        contextValue: ctx,
      });
    let result: ExecutionResult;
    try {
      result =
        prepared.operation.operation === 'mutation'
          ? await executeMutation(ctx, prepared.operation, run)
          : await run();
    } catch (error) {
      throw appErrorOf(error, ctx);
    }
    const errors = (result.errors ?? []).map((error: GraphQLError) => appErrorOf(error, ctx));
    if (errors[0]) throw errors[0];
    return JSON.stringify(result.data?.[prepared.rootField] ?? null);
  }

  /**
   * The variables of a compiled operation, checked as `/graphql` checks them and
   * coerced once; throws the AppError they are refused with.
   */
  coerce(
    prepared: PreparedOperation,
    variables: Record<string, unknown>,
    scope?: ErrorScope,
  ): Record<string, unknown> {
    try {
      return checkedVariables(this.schema, prepared.document, prepared.operation, variables);
    } catch (error) {
      throw appErrorOf(error, scope);
    }
  }

  /**
   * The cost check of every door (OperationChecks), measured only when the document
   * could exceed the limit at the largest page size.
   */
  private checkCost(
    prepared: PreparedOperation,
    variables: Record<string, unknown>,
    scope: ErrorScope,
  ): void {
    if (prepared.worstCost <= this.checks.limits.maxCost) return;
    try {
      this.checks.cost(this.schema, prepared.document, prepared.operation, variables);
    } catch (error) {
      throw appErrorOf(error, scope);
    }
  }
}

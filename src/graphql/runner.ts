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
  specifiedRules,
  validate,
} from 'graphql';
import { AppError } from '../common/errors/app-error';
import { appErrorOf, type ErrorScope } from '../common/errors/render';
import { SIZE_MAX } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { executeMutation } from './database-plugin';
import { depthAndAliasRule, type GraphQLLimits, operationCost, queryLimitErrorOf } from './limits';
import { checkedVariables, checkOperation } from './request-checks';
import { compileSqlPlan, type SqlPlan } from './sql-plan/compile';

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
  readonly plan?: SqlPlan;
}

/**
 * Runs persisted GraphQL operations for the REST facade without Apollo's per-request
 * pipeline, with the same checks and the same database rules as `/graphql` (variables
 * checked as there, one transaction per mutation, errors as the catalog's AppErrors).
 */
export class OperationRunner {
  constructor(
    readonly schema: GraphQLSchema,
    private readonly limits: GraphQLLimits,
    /** The ORM's entity metadata: the columns compiled operations read. */
    private readonly metadata: MetadataStorage,
  ) {}

  /** Prepares a document of exactly one operation with one root field; throws when it is not valid GraphQL. */
  prepare(source: string, rootField: string): PreparedOperation {
    let refusal: AppError | undefined;
    let document: DocumentNode;
    try {
      document = parse(source, { maxTokens: this.limits.maxTokens });
    } catch (error) {
      refusal = queryLimitErrorOf(error);
      if (!refusal) throw error;
      document = parse(source);
    }
    const errors = validate(this.schema, document, [...specifiedRules, depthAndAliasRule(this.limits)]);
    for (const error of errors) {
      const limit = queryLimitErrorOf(error);
      if (!limit) throw new Error(`Persisted operation for ${rootField} is not valid: ${error.message}`);
      refusal ??= limit;
    }
    const operation = getOperationAST(document);
    if (!operation) throw new Error(`Persisted operation for ${rootField} must hold exactly one operation`);
    const worstCost = operationCost(this.schema, document, operation, { size: SIZE_MAX });
    const plan = refusal ? undefined : compileSqlPlan(this.schema, document, operation, this.metadata);
    return { document, operation, rootField, worstCost, refusal, plan };
  }

  /** The root field's value as JSON text; throws the AppError the request is answered with. */
  async run(
    prepared: PreparedOperation,
    variables: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<string> {
    this.checkLimits(prepared, variables);
    if (prepared.plan) {
      const [json] = (await prepared.plan.run(ctx, this.coerce(prepared, variables, ctx))) ?? [];
      if (json !== undefined) return json;
    }
    try {
      checkOperation(this.schema, prepared.operation, variables);
    } catch (error) {
      throw appErrorOf(error, ctx);
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
      result = prepared.operation.operation === 'mutation' ? await executeMutation(ctx, run) : await run();
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
      return checkedVariables(this.schema, prepared.operation, variables);
    } catch (error) {
      throw appErrorOf(error, scope);
    }
  }

  /** The first checks `/graphql` makes before execution: the limits (the variables' come next). */
  private checkLimits(prepared: PreparedOperation, variables: Record<string, unknown>): void {
    if (prepared.refusal) throw prepared.refusal;
    const { maxCost } = this.limits;
    if (prepared.worstCost > maxCost) {
      const cost = operationCost(this.schema, prepared.document, prepared.operation, variables);
      if (cost > maxCost)
        throw new AppError('system:query_too_complex', { limit: 'cost', value: cost, max: maxCost });
    }
  }
}

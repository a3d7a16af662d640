import { type GraphQLResponse, HeaderMap } from '@apollo/server';
import type { MetadataStorage } from '@mikro-orm/core';
import {
  type DocumentNode,
  type FormattedExecutionResult,
  type GraphQLSchema,
  getVariableValues,
  GraphQLError,
  type OperationDefinitionNode,
} from 'graphql';
import { AppError } from '../common/errors/app-error';
import type { RequestContext } from '../context';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { DocumentCache } from './document-cache';
import { CompiledOperation, type SqlPlan } from './sql-plan/compile';

/**
 * The `data` of a query answered from compiled SQL: its root fields' JSON texts, as
 * PostgreSQL built them. {@link stringifyResult} splices them into the response as they
 * are; anything else that serializes it gets the same JSON, parsed.
 */
export class CompiledData {
  constructor(
    private readonly keys: readonly string[],
    private readonly texts: readonly string[],
  ) {}

  /** The `data` object's JSON text. */
  text(): string {
    return `{${this.keys.map((key, i) => `${JSON.stringify(key)}:${this.texts[i]}`).join(',')}}`;
  }

  toJSON(): Record<string, unknown> {
    return JSON.parse(this.text()) as Record<string, unknown>;
  }
}

/**
 * Apollo's `stringifyResult`: its own format (JSON, fields in Apollo's order, a newline),
 * with compiled data spliced in as text.
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  const { data, errors, extensions } = result;
  if (!(data instanceof CompiledData) || errors !== undefined) return `${JSON.stringify(result)}\n`;
  const rest = extensions === undefined ? '' : `,"extensions":${JSON.stringify(extensions)}`;
  return `{"data":${data.text()}${rest}}\n`;
}

/**
 * Answers `/graphql` queries from compiled SQL where the compiler can express their
 * selection (src/graphql/sql-plan): any document a frontend writes, with aliases,
 * fragments, `@skip`/`@include`, variables or literals and several root fields. Each
 * operation is compiled once and kept with its document in Apollo's document store
 * (./document-cache.ts), which counts the plans' heap with the document's.
 */
export class CompiledQueries {
  constructor(
    private readonly metadata: MetadataStorage,
    private readonly documents: DocumentCache,
  ) {}

  /**
   * The response of a query run from its compiled plan, or null when it should execute
   * through its resolvers: a part without SQL form, variables graphql-js would refuse,
   * or any failure (a not-found root, a refused caller): execution then answers it with
   * the error it reports, so that both ways give the same JSON.
   */
  async respond(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    rawVariables: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<GraphQLResponse | null> {
    const compiled = this.documents.compiled(
      document,
      operation,
      (onHeld) => new CompiledOperation(schema, document, operation, this.metadata, { onHeld }),
    );
    const variables = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
    if (variables.errors) return null;
    let plan: SqlPlan | undefined;
    let texts: string[] | undefined;
    try {
      plan = compiled.planFor(variables.coerced);
      texts = await plan?.run(ctx, variables.coerced);
    } catch (error) {
      // Expected refusals (a client's arguments, a not-found root, the database away) are
      // execution's to report; anything else is worth a line.
      if (!(error instanceof AppError) && !(error instanceof GraphQLError) && !isDatabaseUnavailable(error))
        ctx.log.warn({ err: error }, 'compiled query failed; executed instead');
      return null;
    }
    if (!plan || !texts) return null;
    return {
      http: { status: undefined, headers: new HeaderMap() },
      // Apollo types `data` as a plain record; only stringifyResult reads this one.
      body: {
        kind: 'single',
        singleResult: { data: new CompiledData(plan.keys, texts) as unknown as Record<string, unknown> },
      },
    };
  }
}

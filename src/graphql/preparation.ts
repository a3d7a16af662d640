import type { ApolloServerPlugin } from '@apollo/server';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
  parse,
  type ParseOptions,
  specifiedRules,
  validate,
  type ValidationRule,
} from 'graphql';
import { depthAndAliasRule, type GraphQLLimits, operationCost, queryTooComplex } from './limits';
import { checkVariables } from './request-checks';

/**
 * The checks every GraphQL operation meets before it runs, whatever the door: REST's
 * runner, `/graphql` (Apollo parses and validates with these options and runs
 * {@link operationChecksPlugin} for the rest) and subscriptions over the WebSocket.
 * In order: the token limit while parsing; graphql-js's rules with the depth and alias
 * limits; once the operation is known, its variables (the REST door's rules and
 * messages, src/graphql/request-checks.ts), then its cost.
 */
export class OperationChecks {
  readonly parseOptions: ParseOptions;
  readonly validationRules: ValidationRule[];
  /** graphql-js's rules and the limits' (Apollo adds its own to the specified ones). */
  private readonly allRules: readonly ValidationRule[];

  constructor(readonly limits: GraphQLLimits) {
    this.parseOptions = { maxTokens: limits.maxTokens };
    this.validationRules = [depthAndAliasRule(limits)];
    this.allRules = [...specifiedRules, ...this.validationRules];
  }

  /** `source` parsed and validated, or the errors refusing it (a limit's with its code, see queryLimitErrorOf). */
  document(
    schema: GraphQLSchema,
    source: string,
  ): { document?: DocumentNode; errors?: readonly GraphQLError[] } {
    let document: DocumentNode;
    try {
      document = parse(source, this.parseOptions);
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [error] };
      throw error;
    }
    let errors: readonly GraphQLError[];
    try {
      errors = validate(schema, document, this.allRules);
    } catch (error) {
      // graphql-js's single-root-field rule for subscriptions throws where a root field's
      // @skip/@include reads a variable the validation has no value for.
      if (error instanceof GraphQLError) return { errors: [error] };
      throw error;
    }
    return errors.length > 0 ? { errors } : { document };
  }

  /** Checks a resolved operation's variables, then its cost; returns the cost, throws the refusal. */
  operation(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): number {
    checkVariables(schema, document, operation, variables);
    return this.cost(schema, document, operation, variables);
  }

  /** The operation's cost with these variables; throws `system:query_too_complex` above the limit. */
  cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): number {
    const cost = operationCost(schema, document, operation, variables);
    const { maxCost } = this.limits;
    if (cost > maxCost) throw queryTooComplex('cost', cost, maxCost, [operation]);
    return cost;
  }
}

/**
 * Apollo plugin: {@link OperationChecks.operation} once the operation is known, before
 * anything runs (a refused query sends no SQL), and the cost in `extensions.cost`.
 * Subscriptions are served over the WebSocket, not HTTP.
 */
export function operationChecksPlugin<Context extends object>(
  checks: OperationChecks,
): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      let cost: number | undefined;
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
            throw new GraphQLError(
              'Subscriptions run over the WebSocket at /graphql (graphql-ws protocol), not over HTTP',
              { nodes: [operation], extensions: { http: { status: 400 } } },
            );
          }
          cost = checks.operation(schema, document, operation, request.variables ?? {});
        },
        async willSendResponse({ response }) {
          if (cost === undefined || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost };
        },
      };
    },
  };
}

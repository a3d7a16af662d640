/**
 * GraphQL query limits (semantics §1.1, `system:query_too_complex`, HTTP 400).
 *
 * Every document is measured before anything runs, so a refused query sends no SQL:
 *
 * - **tokens**: graphql-js's `parse(…, { maxTokens })` (Apollo `parseOptions`); the
 *   token count of a refused document is measured again for the message.
 * - **depth**: the longest chain of nested fields, fragments expanded
 *   (`{ manga(slug: "x") { title } }` has depth 2). A validation rule.
 * - **aliases**: the number of aliased fields, fragments expanded at every use. A validation rule.
 * - **cost** (depends on variables, so measured per request in `didResolveOperation`):
 *
 *       cost(field)   = 1                                   for a leaf
 *                     = 1 + multiplier × cost(selections)   for an object field
 *       multiplier    = `size` of the parent field          when the field is a list and
 *                                                           its parent field is paged
 *                                                           (has a `size` argument)
 *                     = 1                                   otherwise
 *
 *   On a union or interface, the selections conditioned on one member type (inline
 *   fragments, fragment spreads) are alternatives: only the costliest member counts.
 *   `size` is the argument's literal or variable value, else its default (15), clamped
 *   to 1..100. Lists that are not paged (genres, authors, `replies`) count once: their
 *   length is bounded by the data and they are batch-loaded. Introspection
 *   (`__schema`, `__type`, `__typename`) costs 0 and has no depth, so tools can always
 *   load the schema (it stays subject to the token and alias limits).
 *   Example: `mangaList(size: 50) { list { title_en genres { name_en } } pagination { total } }`
 *   costs 1 + (1 + 50 × (1 + (1 + 1))) + (1 + 1) = 154.
 *
 * The cost of every executed operation is reported in the response's `extensions.cost`.
 */
import {
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isAbstractType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  valueFromASTUntyped,
} from 'graphql';
import { AppError } from '../common/errors/app-error';
import type { Config } from '../config';
import { SIZE_DEFAULT, SIZE_MAX } from '../common/pagination/pagination';

export type QueryLimit = 'depth' | 'cost' | 'aliases' | 'tokens';

export interface GraphQLLimits {
  readonly maxDepth: number;
  readonly maxCost: number;
  readonly maxAliases: number;
  readonly maxTokens: number;
}

/** The refusal, as a GraphQL error carrying the catalog error and HTTP 400. */
export function queryTooComplex(
  limit: QueryLimit,
  value: number,
  max: number,
  nodes?: GraphQLError['nodes'],
): GraphQLError {
  const appError = new AppError('system:query_too_complex', { limit, value, max });
  return new GraphQLError(appError.message_in('en'), {
    nodes,
    originalError: appError,
    extensions: { http: { status: 400 } },
  });
}

type Fragments = (name: string) => FragmentDefinitionNode | undefined;

const isIntrospection = (field: FieldNode) => field.name.value.startsWith('__');

/** What the depth and alias limits measure under a selection set. */
interface SelectionShape {
  /** The deepest chain of fields, introspection fields excluded. */
  depth: number;
  /** Aliased fields, each fragment counted at every use. */
  aliases: number;
}

const NO_SELECTIONS: SelectionShape = { depth: 0, aliases: 0 };

/** The shape of a selection set, fragments expanded; fragment shapes are memoised. */
function shapeOf(
  set: SelectionSetNode,
  fragments: Fragments,
  memo: Map<string, SelectionShape>,
  seen: Set<string>,
): SelectionShape {
  let depth = 0;
  let aliases = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const inner = selection.selectionSet
        ? shapeOf(selection.selectionSet, fragments, memo, seen)
        : NO_SELECTIONS;
      aliases += (selection.alias ? 1 : 0) + inner.aliases;
      if (!isIntrospection(selection)) depth = Math.max(depth, 1 + inner.depth);
      continue;
    }
    let inner: SelectionShape;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = shapeOf(selection.selectionSet, fragments, memo, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments(name);
      if (!fragment || seen.has(name)) continue; // unknown or cyclic: other rules report it
      if (!memo.has(name)) {
        seen.add(name);
        memo.set(name, shapeOf(fragment.selectionSet, fragments, memo, seen));
        seen.delete(name);
      }
      inner = memo.get(name)!;
    }
    depth = Math.max(depth, inner.depth);
    aliases += inner.aliases;
  }
  return { depth, aliases };
}

/** The depth and alias limits as one graphql-js validation rule (results are cached by Apollo). */
export function depthAndAliasRule({ maxDepth, maxAliases }: GraphQLLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const fragments: Fragments = (name) => context.getFragment(name) ?? undefined;
      const { depth, aliases } = shapeOf(operation.selectionSet, fragments, new Map(), new Set());
      if (depth > maxDepth) context.reportError(queryTooComplex('depth', depth, maxDepth, [operation]));
      if (aliases > maxAliases) {
        context.reportError(queryTooComplex('aliases', aliases, maxAliases, [operation]));
      }
      return false;
    },
  });
}

/** The `size` a paged field asks for: literal, variable or default, clamped to 1..100. */
function pageSizeOf(
  node: FieldNode,
  field: GraphQLField<unknown, unknown>,
  variables: Record<string, unknown>,
): number | undefined {
  const argument = field.args.find((arg) => arg.name === 'size');
  if (!argument) return undefined;
  const given = node.arguments?.find((arg) => arg.name.value === 'size');
  let value: unknown = argument.defaultValue ?? SIZE_DEFAULT;
  if (given) {
    const raw = valueFromASTUntyped(given.value, variables);
    if (raw !== undefined && raw !== null) value = raw;
  }
  const size = typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : SIZE_DEFAULT;
  return Math.min(Math.max(size, 1), SIZE_MAX);
}

/** The cost of an operation with its variables (formula at the top of this file). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // Variable defaults apply when the request leaves a variable out.
  const values: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (variables[name] !== undefined) values[name] = variables[name];
    else if (definition.defaultValue) values[name] = valueFromASTUntyped(definition.defaultValue);
  }
  const memo = new Map<string, number>();

  const costOf = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    pageSize: number | undefined,
    seen: Set<string>,
  ): number => {
    // On a union or interface, selections conditioned on one member are alternatives: an
    // item is of one member, so the costliest member counts, beside what every item costs.
    let total = 0;
    const byMember = new Map<string, number>();
    const addConditioned = (condition: GraphQLNamedType | undefined, cost: number) => {
      if (condition && isObjectType(condition) && parent && isAbstractType(parent)) {
        byMember.set(condition.name, (byMember.get(condition.name) ?? 0) + cost);
      } else total += cost;
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (isIntrospection(selection)) continue;
        const field =
          parent && (isObjectType(parent) || isInterfaceType(parent))
            ? parent.getFields()[selection.name.value]
            : undefined;
        if (!selection.selectionSet) {
          total += 1;
          continue;
        }
        const multiplier =
          field && pageSize !== undefined && isListType(getNullableType(field.type)) ? pageSize : 1;
        const childType = field ? getNamedType(field.type) : undefined;
        const childPageSize = field ? pageSizeOf(selection, field, values) : undefined;
        total += 1 + multiplier * costOf(selection.selectionSet, childType, childPageSize, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        addConditioned(type ?? undefined, costOf(selection.selectionSet, type ?? undefined, pageSize, seen));
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || seen.has(name)) continue;
        const key = `${name}:${pageSize ?? ''}`;
        const type = schema.getType(fragment.typeCondition.name.value) ?? undefined;
        if (!memo.has(key)) {
          seen.add(name);
          memo.set(key, costOf(fragment.selectionSet, type, pageSize, seen));
          seen.delete(name);
        }
        addConditioned(type, memo.get(key)!);
      }
    }
    return total + Math.max(0, ...byMember.values());
  };

  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  return costOf(operation.selectionSet, root ?? undefined, undefined, new Set());
}

/** The limits the configuration sets. */
export function graphqlLimitsOf(
  config: Pick<Config, 'graphqlMaxDepth' | 'graphqlMaxCost' | 'graphqlMaxAliases' | 'graphqlMaxTokens'>,
): GraphQLLimits {
  return {
    maxDepth: config.graphqlMaxDepth,
    maxCost: config.graphqlMaxCost,
    maxAliases: config.graphqlMaxAliases,
    maxTokens: config.graphqlMaxTokens,
  };
}

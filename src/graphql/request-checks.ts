import {
  type ASTNode,
  coerceInputValue,
  type DocumentNode,
  getNamedType,
  getVariableValues,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isInputType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  typeFromAST,
  ValidationContext,
  type VariableDefinitionNode,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { AppError, type RequestLocation, validationError } from '../common/errors/app-error';
import { inputSpecOf } from '../common/validation/input-specs';
import { checkObject, isPlainObject, isSafeJson, type ObjectSpec } from '../common/validation/json-schema';

/** GraphQL input type name → the request schema registered for its class. */
let specsByTypeName: Map<string, ObjectSpec> | undefined;

function specOfInputType(name: string): ObjectSpec | undefined {
  specsByTypeName ??= new Map(
    getMetadataStorage().inputTypes.flatMap(({ name: typeName, target }) => {
      const spec = inputSpecOf(target);
      return spec ? [[typeName, spec] as const] : [];
    }),
  );
  return specsByTypeName.get(name);
}

/** Where the REST door would carry a variable: page and size in the query, input objects in the body. */
function locationOf(variable: string, type: GraphQLInputType): RequestLocation {
  if (variable === 'page' || variable === 'size') return 'query';
  return isInputObjectType(getNamedType(type)) ? 'body' : 'path';
}

/**
 * The first problem of one variable's value that graphql-js would refuse while coercing
 * it: undefined when it coerces, else the name to report (for an input object the field
 * its request schema names first, or the top-level field the coercion failed in; the
 * variable otherwise; '' when no field can be named). A scalar must also be storable
 * (no U+0000). Input objects that coerce are checked by their request schemas when
 * their field runs, in argument order (page and size first).
 */
function firstProblem(variable: string, type: GraphQLInputType, value: unknown): string | undefined {
  let failedAt: string | undefined;
  coerceInputValue(value, type, (path) => {
    if (failedAt !== undefined) return;
    const [first] = path;
    failedAt = typeof first === 'string' ? first : variable;
  });
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return failedAt ?? (isSafeJson(value) ? undefined : variable);
  if (failedAt === undefined) return undefined;
  const spec = specOfInputType(named.name);
  const checked = spec && isPlainObject(value) ? checkObject(spec, value) : undefined;
  if (checked && 'violation' in checked) return checked.violation.name ?? '';
  return failedAt === variable && isPlainObject(value) ? '' : failedAt;
}

/**
 * Calls `check` for each variable the request gives a value, with its definition and
 * input type (a plain loop: compiled reads run this on every request).
 */
function forEachGivenVariable(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  check: (definition: VariableDefinitionNode, name: string, type: GraphQLInputType, value: unknown) => void,
): void {
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    const type = typeFromAST(schema, definition.type);
    if (value !== undefined && type && isInputType(type)) check(definition, name, type, value);
  }
}

/** A refusal of the request's variables before execution: `system:validation_error`, HTTP 400. */
function refusal(error: AppError, nodes: readonly ASTNode[]): GraphQLError {
  return new GraphQLError(error.message, {
    nodes,
    originalError: error,
    extensions: { http: { status: 400 } },
  });
}

const NONE: ReadonlySet<string> = new Set();
const requiredWhereUsed = new WeakMap<OperationDefinitionNode, ReadonlySet<string>>();

/**
 * The variables declared nullable that the operation uses where a value is required:
 * GraphQL admits them there for a default's sake, the variable's (`$on: Boolean = true`
 * in `@include(if: $on)`) or the position's (`$page: Int` for `page: Int! = 1`), so an
 * explicit null passes coercion and fails only once the field runs. Found once per
 * operation (fragments followed), with graphql-js's own account of where each variable
 * is used.
 */
function variablesRequiredWhereUsed(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): ReadonlySet<string> {
  const nullable = (operation.variableDefinitions ?? []).filter(
    ({ type }) => type.kind !== Kind.NON_NULL_TYPE,
  );
  if (nullable.length === 0) return NONE;
  let names = requiredWhereUsed.get(operation);
  if (!names) {
    const candidates = new Set(nullable.map(({ variable }) => variable.name.value));
    const usages = new ValidationContext(schema, document, new TypeInfo(schema), () => {})
      .getRecursiveVariableUsages(operation)
      .filter(({ node, type }) => isNonNullType(type) && candidates.has(node.name.value));
    names = new Set(usages.map(({ node }) => node.name.value));
    requiredWhereUsed.set(operation, names);
  }
  return names;
}

/** Refuses an explicit null for a variable the operation uses where a value is required (see variablesRequiredWhereUsed). */
function checkNullsWhereRequired(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): void {
  const required = variablesRequiredWhereUsed(schema, document, operation);
  if (required.size === 0) return;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!required.has(name) || !Object.hasOwn(variables, name) || variables[name] !== null) continue;
    const type = typeFromAST(schema, definition.type);
    throw refusal(validationError(type && isInputType(type) ? locationOf(name, type) : 'body', name), [
      definition,
    ]);
  }
}

/**
 * Checks an operation's variables before it runs, with the same rules and messages as
 * the REST door: `Invalid field <name> in request <location>` (semantics §1.1, §7.2);
 * graphql-js's own coercion messages quote the submitted value (a password, a client
 * secret), so no such message reaches a client. A required variable that is missing is
 * left to graphql-js, whose message quotes no value. A null where the operation needs a
 * value is refused here too, whether the field reading it is a root or a nested one.
 */
export function checkVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): void {
  forEachGivenVariable(schema, operation, variables, (definition, name, type, value) => {
    const problem = firstProblem(name, type, value);
    if (problem !== undefined)
      throw refusal(validationError(locationOf(name, type), problem || undefined), [definition]);
  });
  checkNullsWhereRequired(schema, document, operation, variables);
}

/**
 * The operation's variables as graphql-js coerces them (defaults applied), refused as
 * {@link checkVariables} refuses them: for running a compiled operation, which then
 * coerces nothing again. A failure checkVariables leaves to graphql-js is thrown as
 * graphql-js reports it.
 */
export function checkedVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) {
    checkVariables(schema, document, operation, variables);
    throw coerced.errors[0];
  }
  // Coercible; a scalar must also be storable (input objects are checked where they are used).
  forEachGivenVariable(schema, operation, variables, (definition, name, type, value) => {
    if (!isInputObjectType(getNamedType(type)) && !isSafeJson(value))
      throw refusal(validationError(locationOf(name, type), name), [definition]);
  });
  checkNullsWhereRequired(schema, document, operation, variables);
  return coerced.coerced;
}

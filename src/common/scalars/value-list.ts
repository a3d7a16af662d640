import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { registerEnumType } from 'type-graphql';

/** What GraphQL allows as an enum value's name (`true`, `false` and `null` excepted). */
const ENUM_VALUE_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const isEnumValueName = (value: string): boolean =>
  ENUM_VALUE_NAME.test(value) && !['true', 'false', 'null'].includes(value);

/**
 * The GraphQL type of one value list (semantics §5), for `@Field(() => …)`.
 *
 * A real enum whose value names are the list's values as REST sends them (lower-case),
 * so introspection, the playground and frontends' code generators see the values, and
 * the JSON of both doors is the same. A list with a value that cannot be an enum name
 * (`4_koma_manga`) is a string scalar restricted to the values instead, listed in its
 * description: the value travels unchanged and an unknown one is a coercion error.
 */
export function valueListType<T extends string>(
  name: string,
  values: readonly T[],
): Readonly<Record<T, T>> | GraphQLScalarType<T, T> {
  if (values.every(isEnumValueName)) {
    const enumObject = Object.fromEntries(values.map((value) => [value, value])) as Record<T, T>;
    registerEnumType(enumObject, { name });
    return enumObject;
  }
  return valueListScalar(name, values);
}

/**
 * The SQL condition (src/graphql/sql-plan) true for a stored text that is none of
 * `values`: what serializing a value list refuses, for its scalar and its enum alike.
 */
export function refusesOtherThan(values: readonly string[]): (stored: string) => string {
  const listed = values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ');
  return (stored) => `not (${stored} = any (array[${listed}]::text[]))`;
}

function valueListScalar<T extends string>(name: string, values: readonly T[]): GraphQLScalarType<T, T> {
  const allowed = new Set<string>(values);
  const check = (value: unknown): T => {
    if (typeof value !== 'string' || !allowed.has(value)) {
      throw new GraphQLError(`${name} must be one of: ${values.join(', ')}`);
    }
    return value as T;
  };
  return new GraphQLScalarType<T, T>({
    name,
    description: `One of: ${values.join(', ')}.`,
    serialize: check,
    parseValue: check,
    // In SQL (src/graphql/sql-plan): stored as the text it serializes to; other values refused as here.
    extensions: { sql: { refuses: refusesOtherThan(values) } },
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`);
      return check(ast.value);
    },
  });
}

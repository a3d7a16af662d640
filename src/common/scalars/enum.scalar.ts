import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/**
 * A string scalar restricted to the values of one enumeration. GraphQL enums cannot
 * hold values such as `4_koma_manga`, so every enum of the service is one of these:
 * the value travels unchanged and an unknown value is a coercion error.
 */
export function enumScalar<T extends string>(name: string, values: readonly T[]): GraphQLScalarType<T, T> {
  const allowed = new Set<string>(values);
  const sqlValues = values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ');
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
    extensions: {
      sql: { refuses: (stored: string) => `not (${stored} = any (array[${sqlValues}]::text[]))` },
    },
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`);
      return check(ast.value);
    },
  });
}

import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/**
 * An integer input field: a number, or a string of decimal digits read as that integer
 * (semantics §1.1.1; the original service's web frontend sends years and episode counts
 * as strings). The scalar passes the value through and the input's registered request
 * schema checks and reads it, so GraphQL and REST accept and refuse the same values.
 */
export const IntegerInput = new GraphQLScalarType<unknown, number>({
  name: 'IntegerInput',
  description: 'An integer, or a string of decimal digits with an optional leading "-" read as that integer.',
  serialize: (value) => value as number,
  parseValue: (value) => value,
  // A float literal passes too, as a JSON body's `13.0` does; the schema refuses fractions.
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    if (ast.kind === Kind.STRING) return ast.value;
    throw new GraphQLError('IntegerInput must be an integer or a string of decimal digits', { nodes: ast });
  },
});

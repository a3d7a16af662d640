import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** Unix seconds; fractions are truncated on output. Used for every time on the wire. */
export const UnixTime = new GraphQLScalarType<Date, number>({
  name: 'UnixTime',
  description: 'A point in time as integer Unix seconds (UTC).',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(value as string | number);
    if (Number.isNaN(date.getTime())) throw new GraphQLError('UnixTime cannot represent an invalid date');
    return Math.trunc(date.getTime() / 1000);
  },
  // The same truncation and refusal in SQL, for operations whose JSON is built in PostgreSQL.
  extensions: {
    sql: {
      value: (time: string) => `trunc(extract(epoch from ${time}))::bigint`,
      refuses: (time: string) => `not isfinite(${time})`,
    },
  },
  parseValue(value) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new GraphQLError('UnixTime must be a positive number of seconds');
    }
    return new Date(value * 1000);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.FLOAT) {
      throw new GraphQLError('UnixTime must be a positive number of seconds');
    }
    const seconds = Number(ast.value);
    if (!(seconds > 0)) throw new GraphQLError('UnixTime must be a positive number of seconds');
    return new Date(seconds * 1000);
  },
});

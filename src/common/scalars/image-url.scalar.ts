import { GraphQLScalarType } from 'graphql';
import { config } from '../../config';

/** Joins a stored image path to the image base URL with exactly one `/`; absolute URLs pass through. */
export function imageUrl(stored: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(stored)) return stored;
  return `${config().imageBaseUrl}/${stored.replace(/^\/+/, '')}`;
}

/** `imageUrl` in SQL, for operations whose JSON is built in PostgreSQL (src/graphql/sql-plan). */
export function imageUrlSql(stored: string): string {
  const base = `'${config().imageBaseUrl.replace(/'/g, "''")}'`;
  return `case when ${stored} ~* '^[a-z][a-z0-9+.-]*://' then ${stored} else ${base} || '/' || regexp_replace(${stored}, '^/+', '') end`;
}

/** Output-only: a stored image path served as an absolute URL. */
export const ImageUrl = new GraphQLScalarType<string, string>({
  name: 'ImageUrl',
  description: 'An absolute image URL (stored paths are served under the image base URL).',
  serialize: (value) => imageUrl(String(value)),
  extensions: { sql: { value: imageUrlSql } },
  parseValue: () => {
    throw new TypeError('ImageUrl is output only');
  },
});

import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import { AppError } from './app-error';

/*
 * A query refused for its size (src/graphql/limits.ts sets the limits): found behind
 * whatever Apollo or graphql-js wrapped it in, so that every door answers it alike.
 */

const TOKEN_LIMIT = /^Syntax Error: Document contains more th(?:an|at) (\d+) tokens/;

/** Tokens of a document as graphql-js counts them (comments excluded); stops at a lexing error. */
export function countTokens(body: string): number {
  const lexer = new Lexer(new Source(body));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  } catch {
    // Whatever was counted before the bad character is enough for the message.
  }
  return count;
}

/**
 * The `system:query_too_complex` AppError behind an error Apollo reports, if any:
 * a validation-rule or plugin refusal, or graphql-js's token-limit syntax error.
 */
export function queryLimitErrorOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let hops = 0; current instanceof Error && hops < 4; hops += 1) {
    if (current instanceof AppError) return current.code === 'system:query_too_complex' ? current : undefined;
    if (current instanceof GraphQLError) {
      const tokens = TOKEN_LIMIT.exec(current.message);
      if (tokens) {
        const max = Number(tokens[1]);
        const value = Math.max(countTokens(current.source?.body ?? ''), max + 1);
        return new AppError('system:query_too_complex', { limit: 'tokens', value, max });
      }
      current = current.originalError;
    } else return undefined;
  }
  return undefined;
}

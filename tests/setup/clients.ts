import type { RequestListener } from 'node:http';
import request from 'supertest';

export interface CallOptions {
  token?: string;
  /** Sent as the `auth` cookie instead of the header. */
  cookie?: string;
  language?: string;
}

function withOptions(test: request.Test, options: CallOptions): request.Test {
  if (options.token) test.set('auth', options.token);
  if (options.cookie) test.set('Cookie', `auth=${options.cookie}`);
  if (options.language) test.set('Accept-Language', options.language);
  return test;
}

/** A REST call: `rest(app, 'GET', '/manga/x', {token})`. */
export function rest(
  app: RequestListener,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH',
  path: string,
  body?: unknown,
  options: CallOptions = {},
): request.Test {
  const call = request(app)[method.toLowerCase() as Lowercase<typeof method>](path);
  const test = withOptions(call, options);
  return body === undefined ? test : test.send(body as object);
}

/** A GraphQL call as a frontend sends it: plain JSON POST to /graphql. */
export function gql(
  app: RequestListener,
  query: string,
  variables: Record<string, unknown> = {},
  options: CallOptions = {},
): request.Test {
  return withOptions(request(app).post('/graphql').set('Content-Type', 'application/json'), options).send({
    query,
    variables,
  });
}

import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestListener } from 'node:http';
import type { User } from '../../src/accounts/user.entity';
import { Client } from '../../src/clients/client.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildThirdPartyToken, buildToken, buildUser } from '../factories';
import { testClientSecrets } from '../setup/client-secrets';
import { gql, rest, type CallOptions } from '../setup/clients';
import { PAGINATION, type Shape } from '../setup/contract-shapes';

/** Contract User without `is_followed` (semantics §1.6). */
export const USER: Shape = {
  reference: 'string',
  created: 'integer',
  updated: 'integer',
  description: 'string',
  username: 'string',
  avatar: 'string',
  cover: 'string',
  active: 'boolean',
  role: 'string',
};

/** Contract Client (api-contract.md "Client"), `secret` as the owner sees it. */
export const CLIENT: Shape = {
  reference: 'string',
  name: 'string',
  description: 'string',
  endpoint: 'string',
  verified: 'boolean',
  user: { object: USER },
  created: 'integer',
  updated: 'integer',
  secret: 'string',
};

export const PAGE_OF = (item: Shape): Shape => ({
  pagination: { object: PAGINATION },
  list: { arrayOf: item },
});

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The route row of `method path`. */
export function routeOf(method: RestRoute['method'], path: string): RestRoute {
  const route = restRoutes.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route;
}

export interface Account {
  user: User;
  token: string;
  as: CallOptions;
}

/** A user (role `user` unless overridden) with a first-party token. */
export async function account(orm: MikroORM, overrides: Partial<User> = {}): Promise<Account> {
  const user = await buildUser(orm, overrides);
  const token = await buildToken(orm, user);
  return { user, token, as: { token } };
}

/** A third-party token of `user` for a client of someone else, holding `scope`. */
export async function thirdPartyAs(orm: MikroORM, user: User, scope: string[], client?: Client) {
  const token = client
    ? await buildToken(orm, user, { client, scope })
    : await buildThirdPartyToken(orm, user, scope);
  return { token };
}

export const validBody = (n = 1) => ({
  name: `My client ${n}`,
  description: 'Reads my watch list',
  endpoint: 'https://example.com/callback',
});

/** The client's stored secret, opened as the service opens it (it is stored sealed). */
export async function storedSecret(orm: MikroORM, reference: string): Promise<string> {
  const client = await orm.em.fork().findOneOrFail(Client, { reference });
  return testClientSecrets().open(client.sealed_secret, reference);
}

/** POST /client as `as`; returns the response. */
export const createVia = (app: RequestListener, body: unknown, as: CallOptions) =>
  rest(app, 'POST', '/client', body, as);

/** GraphQL errors as `{code, status, message}` of the first one. */
export function firstError(body: { errors?: { message: string; extensions?: Record<string, unknown> }[] }) {
  const [error] = body.errors ?? [];
  return {
    code: error?.extensions?.code,
    status: (error?.extensions?.http as { status?: number } | undefined)?.status,
    message: error?.message,
  };
}

/** Runs a route's own persisted document through /graphql. */
export const viaGraphQL = (
  app: RequestListener,
  route: RestRoute,
  variables: Record<string, unknown>,
  as: CallOptions = {},
) => gql(app, route.document, variables, as);

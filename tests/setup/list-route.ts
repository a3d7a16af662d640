import type { RequestListener } from 'node:http';
import { expect } from '@jest/globals';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { gql, rest, type CallOptions } from './clients';
import type { Json } from './json';

/**
 * `document` with `__typename` added to its operation's root selection: such a document
 * is never compiled, so the resolvers answer it (the twin of a compiled read).
 */
export const executedTwin = (document: string): string => document.replace('{', '{ __typename ');

export interface Paging {
  page?: number;
  size?: number;
}

/**
 * The calls of a paged list route that takes a JSON body (POST /anime, /manga): REST with
 * `page`/`size` in the query, its document over `/graphql` (or another, e.g. its
 * {@link executedTwin}), and the slugs of a successful REST answer.
 */
export function pagedListRoute(t: { readonly app: RequestListener }, path: string) {
  const route: RestRoute = restRoutes.find((r) => r.path === path && r.method === 'POST')!;
  const list = (body: unknown, options: CallOptions & Paging = {}) => {
    const query = new URLSearchParams();
    if (options.page !== undefined) query.set('page', String(options.page));
    if (options.size !== undefined) query.set('size', String(options.size));
    const qs = query.toString();
    return rest(t.app, 'POST', `${path}${qs ? `?${qs}` : ''}`, body, options);
  };
  const listGql = (input: unknown, options: CallOptions & Paging = {}, document = route.document) =>
    gql(t.app, document, { page: options.page ?? 1, size: options.size ?? 15, input }, options);
  const slugs = async (body: unknown, options: CallOptions & Paging = {}): Promise<string[]> => {
    const res = await list(body, options);
    expect(res.status).toBe(200);
    return (res.body.list as Json[]).map((item) => item.slug as string);
  };
  return { route, resolverDocument: executedTwin(route.document), list, listGql, slugs };
}

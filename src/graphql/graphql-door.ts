import type { IncomingMessage } from 'node:http';
import { type ApolloServer, HeaderMap, type HTTPGraphQLRequest } from '@apollo/server';
import accepts from 'accepts';
import parseUrl from 'parseurl';
import { validationError } from '../common/errors/app-error';
import { requestScope } from '../common/request-scope';
import type { RequestContext } from '../context';
import {
  bodyOf,
  contextOf,
  type Handler,
  pathOf,
  readJsonBody,
  sendRendered,
  sendRequestError,
} from '../http';
import type { Admission } from '../http/admission';

/** A browser navigating to `/graphql` (it prefers HTML): the playground's, not Apollo's. */
export function wantsPlayground(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  return (
    accepts(req).type(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html'
  );
}

function headersOf(req: IncomingMessage): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return headers;
}

/**
 * The `/graphql` door: Apollo Server answers GraphQL over HTTP (GET and POST) through
 * its integration API (`executeHTTPGraphQLRequest`), on Node's own request and response,
 * as the REST door answers its paths; the layer's steps (src/http/layer.ts) ran before.
 * A request runs once admitted (src/http/admission.ts), its body read. A browser's page
 * request goes on to the playground.
 */
export function graphqlDoor(apollo: ApolloServer<RequestContext>, admission: Admission): Handler {
  const readBody = readJsonBody((req, res) => sendRequestError(req, res, validationError('body')));

  const answer = async (req: IncomingMessage, res: Parameters<Handler>[1], body: unknown): Promise<void> => {
    const httpGraphQLRequest: HTTPGraphQLRequest = {
      // HEAD is answered as GET (Node sends no body), as everywhere else.
      method: req.method === 'POST' ? 'POST' : 'GET',
      headers: headersOf(req),
      search: parseUrl(req)?.search ?? '',
      body,
    };
    const context = contextOf(req);
    const { requestId, language, log } = context;
    // Apollo's error formatter gets no context: it finds the request's facts in the scope.
    const response = await requestScope.run({ requestId, language, log }, () =>
      apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest, context: async () => context }),
    );
    // Answered 408 meanwhile: that answer stands.
    if (res.headersSent) return;
    for (const [name, value] of response.headers) res.setHeader(name, value);
    const status = response.status ?? 200;
    if (response.body.kind === 'complete') {
      sendRendered(req, res, status, response.body.string);
      return;
    }
    res.statusCode = status;
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };

  return (req, res, next) => {
    if (pathOf(req) !== '/graphql' || wantsPlayground(req)) return next();
    if (req.method !== 'POST') return admission.run(res, () => answer(req, res, {})).catch(next);
    return readBody(req, res, (error) => {
      if (error) next(error);
      else admission.run(res, () => answer(req, res, bodyOf(req))).catch(next);
    });
  };
}

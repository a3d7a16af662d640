import type { IncomingMessage, RequestListener, Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { MikroORM } from '@mikro-orm/postgresql';
import { parseCookie } from 'cookie';
import express from 'express';
import type { Logger } from 'pino';
import { type AccountServices, createAccountServices } from './accounts/account-services';
import type { ClientSecretBox } from './clients/client-secret-box';
import { openClientSecretBox } from './clients/client-secret-keys';
import { AppError, languageOf } from './common/errors/app-error';
import { formatGraphQLError } from './common/errors/render';
import type { Config } from './config';
import { RequestContext } from './context';
import { CompiledQueries, stringifyResult } from './graphql/compiled-queries';
import { DocumentCache, PersistedQueryTexts } from './graphql/document-cache';
import { databasePlugin, forgetLoadedBeforeMutationFields } from './graphql/database-plugin';
import { graphqlLimitsOf } from './graphql/limits';
import { OperationChecks, operationChecksPlugin } from './graphql/preparation';
import { OperationRunner } from './graphql/runner';
import { attachSubscriptions, type SubscriptionServer } from './notifications/live/subscription-server';
import type { NotificationBus } from './notifications/live/notification-bus';
import { type NotificationFeed, startLiveNotifications } from './notifications/live/notification-feed';
import { graphqlDoor } from './graphql/graphql-door';
import { playgroundRouter } from './graphql/playground';
import { contextOf, type Handler, headerOf, sendRequestError, setContext } from './http';
import { Admission } from './http/admission';
import { compressAnswers, httpLayer } from './http/layer';
import { healthChecks } from './http/health';
import { methodsHandler } from './http/methods';
import { corsMiddleware } from './http/cors';
import { startRequestLog } from './http/request-log';
import { series } from './http/series';
import { createRateLimit } from './http/rate-limit';
import type { Mailer } from './mail/mailer';
import { openApiRouter } from './rest/docs';
import { restRouter } from './rest/rest-router';
import type { RestRoute } from './rest/route';
import { RouteTable } from './rest/route-table';
import { restRoutes } from './routes';
import { buildAppSchema } from './schema';

export interface AppDependencies {
  orm: MikroORM;
  config: Config;
  log: Logger;
  /** The REST route table; tests may mount extra routes. */
  routes?: readonly RestRoute[];
  /** Outgoing email; by default SMTP when `SMTP_URL` is set, else the log. */
  mailer?: Mailer;
  /** Seals client secrets; by default under `CLIENT_SECRET_KEY`, else the key file. */
  clientSecrets?: ClientSecretBox;
}

export interface App {
  /**
   * The request listener (src/http/layer.ts): the REST door and the GraphQL door answer
   * their paths on Node's own request and response; the playground and the docs are
   * express's.
   */
  app: RequestListener;
  apollo: ApolloServer<RequestContext>;
  /** Carries notification events between instances (the new-episode job publishes too). */
  notifications: NotificationBus;
  /** Serves this instance's live subscriptions their notifications. */
  feed: NotificationFeed;
  /** Serves GraphQL subscriptions on `server`'s `/graphql` (WebSocket). */
  attach(server: Server): SubscriptionServer;
  stop(): Promise<void>;
}

/**
 * The raw token: a non-empty `auth` header wins over the `auth` cookie (semantics §1.2).
 * The `Cookie` header is parsed only when there is no such header; nothing else reads it.
 */
function rawTokenOf(req: IncomingMessage): string | undefined {
  const header = headerOf(req, 'auth');
  if (header) return header;
  const cookies = req.headers.cookie;
  const cookie = cookies ? parseCookie(cookies).auth : undefined;
  return cookie ? cookie : undefined;
}

/** Builds the application (without listening): logs, context, REST, GraphQL, errors. */
export async function buildApp({
  orm,
  config,
  log,
  routes = restRoutes,
  mailer,
  clientSecrets = openClientSecretBox(config, { onGenerated: (message) => log.warn(message) }),
}: AppDependencies): Promise<App> {
  const accounts = createAccountServices(config, log, clientSecrets, mailer);
  const checks = new OperationChecks(graphqlLimitsOf(config));
  // Built once: Apollo executes it, the OpenAPI document is derived from it.
  const schema = await buildAppSchema();
  forgetLoadedBeforeMutationFields(schema);
  // Bounded by the heap their entries take (src/graphql/document-cache.ts).
  const documents = new DocumentCache(config.graphqlDocumentCacheBytes, log);
  const persistedQueries = new PersistedQueryTexts(config.graphqlPersistedQueryCacheBytes);
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError: formatGraphQLError,
    introspection: config.introspection,
    includeStacktraceInErrorResponses: false,
    // main.ts owns the shutdown sequence (server, Apollo, pool, database).
    stopOnTerminationSignals: false,
    // The checks of every door (src/graphql/preparation.ts): limits, variables, cost.
    parseOptions: checks.parseOptions,
    validationRules: checks.validationRules,
    csrfPrevention: true,
    documentStore: documents,
    persistedQueries: { cache: persistedQueries },
    stringifyResult,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      operationChecksPlugin(checks),
      databasePlugin(new CompiledQueries(orm.getMetadata(), documents)),
    ],
  });
  await apollo.start();
  const live = await startLiveNotifications(orm, config.redisUrl, log);

  const table = new RouteTable(routes);
  const rateLimit = createRateLimit(config, log, table);
  const cors = corsMiddleware(config);
  const admission = new Admission(config.maxActiveRequests);

  // What express serves: the playground and the docs. The cross-cutting steps run
  // before, in the HTTP layer, once per request.
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  app.use(playgroundRouter());
  app.use(openApiRouter(schema, routes));

  const listener = httpLayer({
    opening: series(
      requestContext(orm, accounts, log, live.bus),
      ...(cors ? [cors] : []),
      requestTimeout(config.requestTimeoutMs),
    ),
    unlimited: healthChecks(orm),
    rateLimit: rateLimit.handler,
    methods: methodsHandler(table),
    compression: config.compressionMinBytes > 0 ? compressAnswers(config.compressionMinBytes) : undefined,
    // The API's doors skip express: its router and its request and response prototypes
    // cost more per request than the cheapest reads themselves.
    rest: restRouter(
      table,
      new OperationRunner(schema, checks.limits, orm.getMetadata()),
      admission,
      config.cacheMaxAgeSeconds,
    ),
    graphql: graphqlDoor(apollo, admission),
    // express passes what it does not serve, and its errors, on to the layer.
    others: (req, res, next) => app(req as express.Request, res as express.Response, next),
  });

  return {
    app: listener,
    apollo,
    notifications: live.bus,
    feed: live.feed,
    attach: (server) =>
      attachSubscriptions(server, {
        schema,
        orm,
        contextFor: (scope, token, connection) =>
          new RequestContext(
            orm.em,
            scope.requestId,
            scope.language,
            log,
            token,
            accounts,
            undefined,
            undefined,
            connection,
          ),
        log,
        feed: live.feed,
        limits: config.subscriptions,
        graphqlLimits: checks.limits,
        documents,
      }),
    stop: async () => {
      await live.feed.close();
      await apollo.stop();
      await accounts.mailer.close();
      await rateLimit.close();
    },
  };
}

/**
 * Per request: its id and log line (src/http/request-log.ts), one forked entity
 * manager, the lazily resolved caller and the message language.
 */
function requestContext(
  orm: MikroORM,
  accounts: AccountServices,
  log: Logger,
  notifications: NotificationBus,
): Handler {
  return (req, res, next) => {
    const request = startRequestLog(req, res, log);
    const language = languageOf(headerOf(req, 'accept-language'));
    const context = new RequestContext(
      orm.em,
      request.id,
      language,
      request.log,
      rawTokenOf(req),
      accounts,
      headerOf(req, 'captcha'),
      notifications,
    );
    setContext(req, context);
    next();
  };
}

/** 408 `timeout` when a request runs past the configured time; its mutation, if any, then rolls back. */
function requestTimeout(ms: number): Handler {
  return (req, res, next) => {
    const timer = setTimeout(() => {
      // A mutation whose commit is under way is answered by the commit's outcome instead.
      if (!res.headersSent && contextOf(req).transaction.expire())
        sendRequestError(req, res, new AppError('timeout'));
    }, ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    next();
  };
}

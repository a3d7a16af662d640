import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type ExecutionArgs, GraphQLError, type GraphQLSchema, getOperationAST } from 'graphql';
import { CloseCode } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { AuthSession, requireScopes } from '../../accounts/session';
import { AppError, languageOf } from '../../common/errors/app-error';
import { formatGraphQLError } from '../../common/errors/render';
import type { RequestScope } from '../../common/request-scope';
import type { SubscriptionLimits } from '../../config';
import type { LiveConnection, NotificationFeed } from './notification-feed';
import { queryLimitErrorOf } from '../../common/errors/query-limit-error';
import { type DocumentCache, documentBytes } from '../../graphql/document-cache';
import type { GraphQLLimits } from '../../graphql/limits';
import { OperationChecks } from '../../graphql/preparation';
import { serveGraphQLWs, type SocketExtra } from '../../graphql/websocket-transport';

/** WebSocket close codes of this service (4400-4499: the client's side, as HTTP's 4xx). */
export const CLOSE_CODES = {
  /** No token in `connection_init`'s `auth`, an invalid one, or one that stopped being valid. */
  unauthorized: 4401,
  /** A third-party token without the notification scope. */
  forbidden: 4403,
  /** No subscription running for `SUBSCRIPTION_IDLE_SECONDS`. */
  idle: 4408,
  /** More connections for this user than `SUBSCRIPTION_MAX_PER_USER`. */
  tooManyConnections: 4429,
  /** The client read its events too slowly (the server does not buffer without bound). */
  slowConsumer: 1013,
} as const;

/** Dead peers: a ping every this many ms, and a connection without its pong is dropped. */
const KEEP_ALIVE_MS = 12_000;

/**
 * What a connection takes in the heap before its subscriptions, by measurement (the
 * socket, graphql-ws's state, the upgrade request, the timers): about 7 to 10 KB. The
 * heap budget counts SUBSCRIPTION_MAX_CONNECTIONS of them (src/heap-budget.ts).
 */
export const CONNECTION_BYTES = 16 * 1024;

/**
 * What a running subscription takes beside its document (see documentBytes): its
 * context with the entity manager it forked, graphql-ws's and graphql-js's iterators,
 * its queue: measured about 13 KB.
 */
export const SUBSCRIPTION_BYTES = 16 * 1024;

/** An acknowledged connection: its caller, and its subscriptions accepted and not yet completed. */
interface Connection {
  user: string;
  token: string;
  /** Its id in the log (`ws-<user>`), its log and its message language. */
  scope: RequestScope;
  tokenCheck?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  /** Its subscriptions accepted and not yet completed, by id, with the heap each was counted for. */
  running: Map<string, number>;
}

/**
 * What the limits count: each user's connections, and the subscriptions accepted and not
 * yet completed, per connection, per user and on the whole instance, and the heap that
 * the running subscriptions take by their estimates. A subscription counts until
 * graphql-ws completes it, also when its socket closed first.
 */
class Usage {
  /** Users with a connection or a subscription on this instance. */
  private readonly users = new Map<string, { connections: number; subscriptions: number }>();
  private subscriptions = 0;
  private heldBytes = 0;

  constructor(private readonly limits: SubscriptionLimits) {}

  get running(): number {
    return this.subscriptions;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /** Whether `bytes` more fit in SUBSCRIPTION_MAX_MEMORY_MB. */
  fits(bytes: number): boolean {
    return this.heldBytes + bytes <= this.limits.maxMemoryBytes;
  }

  /** Counts a connection of `user`; false when they already have as many as allowed. */
  connect(user: string): boolean {
    const usage = this.of(user);
    if (usage.connections >= this.limits.maxPerUser) return false;
    usage.connections += 1;
    return true;
  }

  disconnect(user: string): void {
    this.of(user).connections -= 1;
    this.forgetIdle(user);
  }

  /** Why one more subscription on `connection` is refused, if it is. */
  refusal(connection: Connection): AppError | undefined {
    const { maxSubscriptionsPerSocket, maxSubscriptionsPerUser } = this.limits;
    if (connection.running.size >= maxSubscriptionsPerSocket)
      return new AppError('subscription:too_many', { max: maxSubscriptionsPerSocket });
    if (this.of(connection.user).subscriptions >= maxSubscriptionsPerUser)
      return new AppError('subscription:too_many', { max: maxSubscriptionsPerUser });
    return undefined;
  }

  /** Counts the subscription `id` on `connection`, and the heap it takes. */
  subscribed(connection: Connection, id: string, bytes: number): void {
    connection.running.set(id, bytes);
    this.heldBytes += bytes;
    this.of(connection.user).subscriptions += 1;
    this.subscriptions += 1;
  }

  completed(connection: Connection, id: string): void {
    const bytes = connection.running.get(id);
    if (bytes === undefined) return;
    connection.running.delete(id);
    this.heldBytes -= bytes;
    this.of(connection.user).subscriptions -= 1;
    this.subscriptions -= 1;
    this.forgetIdle(connection.user);
  }

  private of(user: string): { connections: number; subscriptions: number } {
    let usage = this.users.get(user);
    if (!usage) {
      usage = { connections: 0, subscriptions: 0 };
      this.users.set(user, usage);
    }
    return usage;
  }

  /** Forgets a user with nothing left on this instance. */
  private forgetIdle(user: string): void {
    const usage = this.users.get(user);
    if (usage?.connections === 0 && usage.subscriptions === 0) this.users.delete(user);
  }
}

/** The WebSocket side of `/graphql`, as the server and the tests see it. */
export interface SubscriptionServer {
  /**
   * Subscriptions accepted on this instance and not yet ended (the ones of a closed
   * connection end as their iterators are returned): what the limits count.
   */
  readonly running: number;
  /** The heap the running subscriptions take, by their estimates (at most SUBSCRIPTION_MAX_MEMORY_MB). */
  readonly bytes: number;
  /** Closes every connection (1001) and stops taking upgrades. */
  close(): Promise<void>;
}

export interface SubscriptionServerDependencies {
  schema: GraphQLSchema;
  orm: MikroORM;
  /**
   * The context a subscription runs in (the app's request context), for a connection's
   * scope and token, and how its events reach the socket.
   */
  contextFor: (scope: RequestScope, token: string, live: LiveConnection) => RequestScope;
  log: Logger;
  feed: NotificationFeed;
  limits: SubscriptionLimits;
  graphqlLimits: GraphQLLimits;
  /** Where subscription documents are kept once checked, so that subscriptions sending the same text share one. */
  documents: DocumentCache;
}

/**
 * GraphQL subscriptions over the graphql-ws protocol on the HTTP server's `/graphql`
 * (a WebSocket upgrade): the token comes in `connection_init`'s payload as `auth`, is
 * checked then (4401 when missing or invalid, 4403 without the notification scope) and
 * again every `tokenCheckSeconds`; only subscription operations run here (queries and
 * mutations go over HTTP, with their transactions). Limits: connections in all and per
 * user, subscriptions per connection and per user (one more is refused with an `error`
 * message, and the connection goes on), message size, idle time, and slow consumers
 * are dropped.
 */
export function attachSubscriptions(
  server: Server,
  deps: SubscriptionServerDependencies,
): SubscriptionServer {
  const { schema, orm, contextFor, log, feed, limits } = deps;
  const checks = new OperationChecks(deps.graphqlLimits);
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  /** The acknowledged connections, by socket. */
  const connections = new WeakMap<WebSocket, Connection>();
  const usage = new Usage(limits);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an error listener: a peer's reset must not crash us.
    socket.on('error', () => socket.destroy());
    if ((request.url ?? '').split('?')[0] !== '/graphql') {
      refuseUpgrade(socket, 404, 'Not Found');
    } else if (wss.clients.size >= limits.maxConnections) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
    } else {
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    }
  };
  server.on('upgrade', onUpgrade);

  /** The caller of `token`, or the close code and reason (the error code) that refuse it. */
  const authenticate = async (
    token: unknown,
    options?: { recordUse: boolean },
  ): Promise<{ user: string } | { refused: [number, string] }> => {
    if (typeof token !== 'string' || token === '')
      return { refused: [CLOSE_CODES.unauthorized, 'auth:missing_token'] };
    try {
      const em = orm.em.fork();
      const viewer = await new AuthSession(() => em, token, options).required();
      try {
        requireScopes(viewer, ['read:notification']);
      } catch {
        return { refused: [CLOSE_CODES.forbidden, 'permission:denied'] };
      }
      return { user: viewer.user.reference };
    } catch (error) {
      if (error instanceof AppError) return { refused: [CLOSE_CODES.unauthorized, error.code] };
      throw error;
    }
  };

  const idleAfter = (socket: WebSocket, connection: Connection) => {
    clearTimeout(connection.idle);
    connection.idle = setTimeout(() => socket.close(CLOSE_CODES.idle, 'idle'), limits.idleSeconds * 1000);
    connection.idle.unref();
  };

  /** A subscription's document parsed and validated, shared with earlier subscriptions of the same text. */
  const checkedDocument = (query: string): ReturnType<OperationChecks['document']> => {
    const key = `subscription:${createHash('sha256').update(query).digest('hex')}`;
    const cached = deps.documents.peek(key);
    if (cached) return { document: cached };
    const checked = checks.document(schema, query);
    if (checked.document) deps.documents.keep(key, checked.document);
    return checked;
  };

  /** The state onConnect gave the connection: graphql-ws runs no operation before acknowledging it. */
  const connectionOf = ({ socket }: SocketExtra): Connection => {
    const connection = connections.get(socket);
    if (!connection) throw new Error('graphql-ws ran an operation on an unacknowledged connection');
    return connection;
  };

  const stop = serveGraphQLWs(
    wss,
    {
      schema,
      connectionInitWaitTimeout: 10_000,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        const result = await authenticate(ctx.connectionParams?.auth);
        // Closed while the token was looked up: graphql-ws has run onClose already.
        if (socket.readyState !== socket.OPEN) return false;
        if ('refused' in result) {
          socket.close(...result.refused);
          return false;
        }
        if (!usage.connect(result.user)) {
          socket.close(CLOSE_CODES.tooManyConnections, 'too many connections');
          return false;
        }
        const connection: Connection = {
          user: result.user,
          token: String(ctx.connectionParams?.auth),
          scope: {
            requestId: `ws-${result.user}`,
            language: languageOf(request.headers['accept-language']),
            log,
          },
          running: new Map(),
        };
        connections.set(socket, connection);
        connection.tokenCheck = setInterval(() => {
          // A check, not a use: it neither slides the token's expiry nor marks the user active.
          authenticate(connection.token, { recordUse: false })
            .then((again) => {
              if ('refused' in again) socket.close(again.refused[0], 'token no longer valid');
            })
            .catch((error: unknown) => log.warn({ err: error }, 'subscriptions: token check failed'));
        }, limits.tokenCheckSeconds * 1000);
        connection.tokenCheck.unref();
        idleAfter(socket, connection);
        return true;
      },
      onSubscribe: (ctx, id, payload): ExecutionArgs | readonly GraphQLError[] => {
        const connection = connectionOf(ctx.extra);
        if (connection.running.has(id)) {
          // graphql-ws takes an id again once `complete` removed it, while its first subscription
          // may still be starting; that one would then run on, unseen and never completed.
          ctx.extra.socket.close(CloseCode.SubscriberAlreadyExists, 'Subscriber already exists');
          return [new GraphQLError('Subscriber already exists')];
        }
        const refusal = usage.refusal(connection);
        if (refusal) return [new GraphQLError(refusal.message, { originalError: refusal })];
        // The checks of every door (src/graphql/preparation.ts), as /graphql makes them.
        const { document, errors } = checkedDocument(payload.query);
        if (!document) return (errors ?? []).map(asGraphQLError);
        // Counted whole even when shared: a running subscription keeps its document after the cache lets it go.
        const bytes = SUBSCRIPTION_BYTES + documentBytes(document);
        if (!usage.fits(bytes)) {
          const full = new AppError('system:unavailable');
          return [new GraphQLError(full.message, { originalError: full })];
        }
        const operation = getOperationAST(document, payload.operationName);
        if (operation?.operation !== 'subscription') {
          return [
            new GraphQLError(
              'Only subscriptions run over the WebSocket; send queries and mutations over HTTP',
              {
                extensions: { code: 'system:validation_error', http: { status: 400 } },
              },
            ),
          ];
        }
        try {
          checks.operation(schema, document, operation, payload.variables ?? {});
        } catch (error) {
          return [asGraphQLError(error)];
        }
        usage.subscribed(connection, id, bytes);
        clearTimeout(connection.idle);
        const { socket } = ctx.extra;
        const contextValue = contextFor(connection.scope, connection.token, {
          feed,
          dropSlowConsumer: () => socket.close(CLOSE_CODES.slowConsumer, 'slow consumer'),
        });
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
      onComplete: (ctx, id) => {
        const connection = connectionOf(ctx.extra);
        usage.completed(connection, id);
        // Subscriptions also complete when the socket closes: no idle timer for a dead one.
        const { socket } = ctx.extra;
        if (connection.running.size === 0 && socket.readyState === socket.OPEN) idleAfter(socket, connection);
      },
      // Refusals, and failures of running subscriptions: in the connection's language, an
      // unexpected failure logged with the connection's id.
      onError: (ctx, _id, _payload, errors) =>
        errors.map((error) => formattedError(error, connectionOf(ctx.extra).scope)),
      // In the subscription's own context: its language, and its log for an unexpected error.
      onNext: (_ctx, _id, _payload, args, result) => {
        const context = args.contextValue as RequestScope;
        return result.errors
          ? { ...result, errors: result.errors.map((error) => formattedError(error, context)) }
          : result;
      },
      onClose: (ctx) => {
        const connection = connections.get(ctx.extra.socket);
        if (!connection) return;
        clearInterval(connection.tokenCheck);
        clearTimeout(connection.idle);
        usage.disconnect(connection.user);
      },
    },
    {
      keepAliveMs: KEEP_ALIVE_MS,
      log,
      scopeOf: ({ socket }) => connections.get(socket)?.scope ?? { requestId: 'ws', log },
    },
  );

  return {
    get running() {
      return usage.running;
    },
    get bytes() {
      return usage.bytes;
    },
    close: async () => {
      server.off('upgrade', onUpgrade);
      await stop();
    },
  };
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** A parse or validation failure with the limit's code where a limit refused it. */
function asGraphQLError(error: unknown): GraphQLError {
  const limit = queryLimitErrorOf(error);
  if (limit)
    return new GraphQLError(limit.message_in('en'), {
      extensions: { code: limit.code },
      originalError: limit,
    });
  if (error instanceof GraphQLError) return error;
  return new GraphQLError(String(error));
}

/** An error as `/graphql` formats it: the catalog `code` in `extensions`, the message in `scope`'s language. */
function formattedError(error: GraphQLError, scope: RequestScope): GraphQLError {
  const formatted = formatGraphQLError(error.toJSON(), error, scope);
  return new GraphQLError(formatted.message, {
    path: formatted.path,
    extensions: formatted.extensions,
    originalError: error.originalError ?? undefined,
  });
}

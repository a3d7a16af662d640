import type { IncomingMessage } from 'node:http';
import {
  CloseCode,
  type ConnectionInitMessage,
  handleProtocols,
  makeServer,
  type ServerOptions,
} from 'graphql-ws';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import { asAppError, type ErrorScope } from '../common/errors/render';
import { counted, LogSummary } from '../logger';

/** RFC 6455: the server is going away. */
const GOING_AWAY = 1001;
/** RFC 6455: a close frame's payload is at most 125 bytes, two of them the code. */
const MAX_CLOSE_REASON_BYTES = 123;

/** What graphql-ws's hooks find in `ctx.extra` from the transport: the socket and its upgrade request. */
export interface SocketExtra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
}

export interface TransportSettings {
  /** A ping every this many ms; a peer that has not answered the previous one is dropped. */
  keepAliveMs: number;
  log: Logger;
  /** Whom a failure while handling a connection's message is logged for. */
  scopeOf(extra: SocketExtra): ErrorScope;
}

/**
 * graphql-ws's protocol (its `makeServer`) over the sockets `wss` accepts, in the place
 * of graphql-ws's `use/ws` adapter, which writes every failure to the console with its
 * stack. Here the log gets them: a peer's oversized or malformed frame (the socket's
 * `error`, after which `ws` has already closed it with 1009, 1002 or 1007) is counted in
 * one rate-limited warn line; a failure while handling a message is an outage or an
 * unexpected error, logged as everywhere else, and closes the connection with 4500.
 * Returns how to close every connection and stop.
 */
export function serveGraphQLWs(
  wss: WebSocketServer,
  options: ServerOptions<ConnectionInitMessage['payload'], SocketExtra>,
  { keepAliveMs, log, scopeOf }: TransportSettings,
): () => Promise<void> {
  const server = makeServer(options);
  const badFrames = new LogSummary({
    countField: 'connections',
    message: (connections, seconds) =>
      `websocket: ${counted(connections, 'connection')} closed on oversized or invalid frames in the last ${seconds}s`,
  });
  // The handshake accepts graphql-ws's subprotocol only.
  wss.options.handleProtocols = handleProtocols;

  // One timer for every connection: each ping must be answered before the next one.
  const awaitingPong = new WeakSet<WebSocket>();
  const keepAlive = setInterval(() => {
    for (const socket of wss.clients) {
      if (awaitingPong.has(socket)) {
        socket.terminate();
      } else if (socket.readyState === socket.OPEN) {
        awaitingPong.add(socket);
        socket.ping();
      }
    }
  }, keepAliveMs);
  keepAlive.unref();

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const extra: SocketExtra = { socket, request };
    socket.on('pong', () => awaitingPong.delete(socket));
    // ws names its frame errors WS_ERR_*; a peer that merely went away (ECONNRESET) is no bad frame.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code?.startsWith('WS_ERR_')) badFrames.record(log, error.message);
    });
    const closed = server.opened(
      {
        protocol: socket.protocol,
        // Never rejects: a message that cannot be written is lost with its socket, whose
        // close then ends the connection's subscriptions, as any close does.
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => {
              if (error) socket.terminate();
              resolve();
            });
          }),
        // A close reason longer than 123 bytes makes ws throw (graphql-ws quotes a
        // client's subscription id in some): the code alone then says it.
        close: (code, reason = '') =>
          socket.close(code, Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES ? reason : ''),
        onMessage: (handle) =>
          socket.on('message', (data) => {
            handle(String(data)).catch((error: unknown) => {
              const failure = asAppError(error, scopeOf(extra));
              socket.close(CloseCode.InternalServerError, failure.code);
            });
          }),
      },
      extra,
    );
    socket.once('close', (code, reason) => {
      // Logged as an outage or an unexpected error; there is nobody left to answer.
      closed(code, String(reason)).catch((error: unknown) => asAppError(error, scopeOf(extra)));
    });
  });

  return async () => {
    clearInterval(keepAlive);
    for (const socket of wss.clients) socket.close(GOING_AWAY, 'server shutting down');
    await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
  };
}

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { serveGraphQLWs } from '../../src/graphql/websocket-transport';

/** graphql-ws's protocol on a bare `ws` server with a short keep-alive, and nothing else. */
async function startServer(keepAliveMs: number) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const log = pino({ level: 'silent' });
  const stop = serveGraphQLWs(wss, {}, { keepAliveMs, log, scopeOf: () => ({ requestId: 'ws', log }) });
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, stop };
}

describe('the graphql-ws transport', () => {
  it('drops a peer that stops answering pings, and keeps one that answers', async () => {
    const server = await startServer(100);
    try {
      const answering = new WebSocket(server.url, 'graphql-transport-ws');
      const silent = new WebSocket(server.url, 'graphql-transport-ws', { autoPong: false });
      await Promise.all([once(answering, 'open'), once(silent, 'open')]);
      const started = Date.now();
      const [code] = (await once(silent, 'close')) as [number];
      // Terminated without a close frame, after its first unanswered ping.
      expect(code).toBe(1006);
      expect(Date.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answering.readyState).toBe(WebSocket.OPEN);
      answering.close();
    } finally {
      await server.stop();
    }
  });
});

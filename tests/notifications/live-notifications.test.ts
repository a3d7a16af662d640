import { requestContext } from '../setup/request-context';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type Client, type ClientOptions, createClient } from 'graphql-ws';
import pino, { type Logger } from 'pino';
import { getOperationAST, parse } from 'graphql';
import WebSocket from 'ws';
import type { User } from '../../src/accounts/user.entity';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import {
  SUBSCRIPTION_BYTES,
  type SubscriptionServer,
} from '../../src/notifications/live/subscription-server';
import { documentBytes } from '../../src/graphql/document-cache';
import { createFollow } from '../../src/follows/follow.service';
import { operationCost } from '../../src/graphql/limits';
import { createLogger } from '../../src/logger';
import { buildAppSchema } from '../../src/schema';
import { MAX_QUEUED_EVENTS, startLiveNotifications } from '../../src/notifications/live/notification-feed';
import { restFragments } from '../../src/routes';
import { buildThirdPartyToken, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { openTestOrm, resetDatabase } from '../setup/db';

/**
 * Live notifications between two instances of the service on one database, each with
 * its own pool, bus connection and WebSocket server, through real graphql-ws clients:
 * once over PostgreSQL's LISTEN/NOTIFY, once over Redis pub/sub.
 */
jest.setTimeout(60_000);

interface Instance {
  orm: MikroORM;
  app: RequestListener;
  built: Awaited<ReturnType<typeof buildApp>>;
  subscriptions: SubscriptionServer;
  url: string;
  close(): Promise<void>;
}

async function startInstance(env: Record<string, string> = {}, log?: Logger): Promise<Instance> {
  const orm = await openTestOrm();
  const config = loadConfig({
    ...process.env,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'silent',
    SUBSCRIPTION_TOKEN_CHECK_SECONDS: '1',
    ...env,
  });
  const built = await buildApp({ orm, config, log: log ?? createLogger(config) });
  const server: Server = createServer(built.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const subscriptions = built.attach(server);
  const { port } = server.address() as AddressInfo;
  return {
    orm,
    app: built.app,
    built,
    subscriptions,
    url: `ws://127.0.0.1:${port}/graphql`,
    close: async () => {
      await subscriptions.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await built.stop();
      await orm.close();
    },
  };
}

const created = restFragments.complete('subscription { notificationCreated { ...NotificationFields } }');
const counts = 'subscription { notificationCount { unseen } }';

interface Live {
  client: Client;
  /** The next value, or `'nothing'` when none comes within `ms`. */
  next(ms?: number): Promise<unknown>;
  closed: Promise<{ code: number; reason: string }>;
}

const opened: Client[] = [];

/** A graphql-ws client of `url` with `token` that connects at once; disposed after the test. */
function openClient(url: string, token: string | undefined, on?: ClientOptions['on']): Client {
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: token === undefined ? {} : { auth: token },
    retryAttempts: 0,
    lazy: false,
    // Closes are asserted through `on.closed`; the client would print each to the console.
    onNonLazyError: () => undefined,
    on,
  });
  opened.push(client);
  return client;
}

/** A graphql-ws client of `url` with `token`, subscribed to `query` at once. */
function live(url: string, token: string | undefined, query: string): Live {
  let closedWith: (event: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (closedWith = resolve));
  const client = openClient(url, token, {
    closed: (event) => closedWith(event as { code: number; reason: string }),
  });
  const results = client.iterate({ query });
  // A value not taken before a timeout is the next call's.
  let pending: ReturnType<typeof results.next> | undefined;
  return {
    client,
    closed,
    next: async (ms = 1_000) => {
      pending ??= results.next();
      const timeout = new Promise<'nothing'>((resolve) => setTimeout(() => resolve('nothing'), ms).unref());
      const result = await Promise.race([pending, timeout]);
      if (result === 'nothing') return result;
      pending = undefined;
      return result.done ? 'done' : result.value;
    },
  };
}

/** Waits until `condition` holds, checking every 20 ms; fails after `ms`. */
async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${condition.toString()}`);
  }
}

interface ProtocolMessage {
  id?: string;
  type: string;
  payload?: unknown;
}

const rawSockets: WebSocket[] = [];

/**
 * An acknowledged graphql-ws connection on a bare WebSocket, which sends subscriptions as
 * fast as the socket takes them and keeps every message the server sends.
 */
async function rawConnection(url: string, token: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  rawSockets.push(socket);
  const messages: ProtocolMessage[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as ProtocolMessage));
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload: { auth: token } }));
  await until(() => messages.some((message) => message.type === 'connection_ack'));
  return {
    socket,
    subscribe: (id: string, query = counts) =>
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query } })),
    complete: (id: string) => socket.send(JSON.stringify({ id, type: 'complete' })),
    /** The messages of `type` received so far. */
    received: (type: 'next' | 'error') => messages.filter((message) => message.type === type),
    /** The ids of the subscriptions answered with `type`, in order. */
    ids: (type: 'next' | 'error') =>
      messages
        .filter((message) => message.type === type)
        .map((message) => message.id)
        .sort(),
  };
}

/**
 * Upgrades a bare TCP connection to `url`, sends `frame` as it is, and resolves to the
 * code of the close frame the server answers with.
 */
function closeCodeAfterFrame(url: string, frame: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () =>
      socket.write(
        'GET /graphql HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          'Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
      ),
    );
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      const upgraded = received.includes('\r\n\r\n');
      received = Buffer.concat([received, chunk]);
      if (!upgraded && received.includes('\r\n\r\n')) socket.write(frame);
    });
    socket.on('close', () => {
      // The close frame follows the 101 response: opcode 0x88, its length, then the code.
      const closeFrame = received.indexOf('\r\n\r\n') + 4;
      resolve(received[closeFrame] === 0x88 ? received.readUInt16BE(closeFrame + 2) : Number.NaN);
    });
  });
}

/** Waits until the subscription is running on the server (the count subscription answers at once). */
async function connected(url: string, token: string): Promise<void> {
  const probe = live(url, token, counts);
  await probe.next(5_000);
  await probe.client.dispose();
}

describe.each([
  ['PostgreSQL LISTEN/NOTIFY', {}],
  ['Redis pub/sub', { REDIS_URL: 'redis://127.0.0.1:6379/3' }],
])('live notifications across two instances, over %s', (_name, env) => {
  let a: Instance;
  let b: Instance;
  let follower: User;
  let followed: User;
  let followerToken: string;
  let followedToken: string;

  beforeAll(async () => {
    a = await startInstance(env);
    b = await startInstance(env);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  beforeEach(async () => {
    await resetDatabase(a.orm);
    follower = await buildUser(a.orm);
    followed = await buildUser(a.orm);
    followerToken = await buildToken(a.orm, follower);
    followedToken = await buildToken(a.orm, followed);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.dispose()));
  });

  it("delivers a write on instance A to the subscriber on instance B within 1 s, in #22's feed shape", async () => {
    const subscription = live(b.url, followedToken, created);
    await connected(b.url, followedToken);
    const started = Date.now();
    const follow = await rest(a.app, 'PUT', `/follow/${followed.username}`, undefined, {
      token: followerToken,
    });
    expect(follow.status).toBe(200);

    const received = (await subscription.next()) as { data: { notificationCreated: unknown } };
    expect(Date.now() - started).toBeLessThan(1_000);
    const feed = await rest(b.app, 'GET', '/notifications', undefined, { token: followedToken });
    expect(feed.body.list).toHaveLength(1);
    expect(received).toEqual({ data: { notificationCreated: feed.body.list[0] } });
    expect(feed.body.list[0]).toMatchObject({ notification_type: 'follow', seen: false });
  });

  it('sends the unseen count on subscribing and after every change', async () => {
    const subscription = live(b.url, followedToken, counts);
    expect(await subscription.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
    await rest(a.app, 'PUT', `/follow/${followed.username}`, undefined, { token: followerToken });
    expect(await subscription.next()).toEqual({ data: { notificationCount: { unseen: 1 } } });

    const [{ reference }] = (await rest(a.app, 'GET', '/notifications', undefined, { token: followedToken }))
      .body.list;
    const seen = await rest(a.app, 'POST', `/notifications/${reference}/seen`, undefined, {
      token: followedToken,
    });
    expect(seen.status).toBe(200);
    expect(await subscription.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
  });

  it('announces nothing for a write that rolled back, nor to another user', async () => {
    const bystander = await buildUser(a.orm);
    const bystanderLive = live(b.url, await buildToken(a.orm, bystander), created);
    const subscription = live(b.url, followedToken, created);
    await connected(b.url, followedToken);

    // A request's transaction on instance A that creates the notification, then rolls back.
    const ctx = requestContext(a.orm.em, 'rolled-back', { notifications: a.built.notifications });
    await ctx.transaction.begin({ joined: false });
    await createFollow(ctx.em, follower, followed);
    await ctx.transaction.rollback();
    expect(await subscription.next(1_500)).toBe('nothing');
    expect(
      (await rest(b.app, 'GET', '/notifications', undefined, { token: followedToken })).body.list,
    ).toEqual([]);

    // The same write committed arrives; the bystander still receives nothing.
    const follow = await rest(a.app, 'PUT', `/follow/${followed.username}`, undefined, {
      token: followerToken,
    });
    expect(follow.body).toEqual({ follow: true });
    expect(await subscription.next()).toMatchObject({
      data: { notificationCreated: { notification_type: 'follow' } },
    });
    expect(await bystanderLive.next(500)).toBe('nothing');
  });
});

describe('connecting to live notifications', () => {
  let instance: Instance;
  let user: User;
  let token: string;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    instance = await startInstance(
      {
        SUBSCRIPTION_MAX_PER_USER: '2',
        SUBSCRIPTION_MAX_CONNECTIONS: '3',
        SUBSCRIPTION_MAX_MESSAGE_BYTES: '2048',
        SUBSCRIPTION_IDLE_SECONDS: '1',
      },
      pino({ level: 'warn' }, { write: (line: string) => void logLines.push(JSON.parse(line)) }),
    );
  });

  afterAll(() => instance?.close());

  beforeEach(async () => {
    await resetDatabase(instance.orm);
    user = await buildUser(instance.orm);
    token = await buildToken(instance.orm, user);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.dispose()));
  });

  it('closes with 4401 without a token, or with an unknown one', async () => {
    expect(await live(instance.url, undefined, counts).closed).toMatchObject({
      code: 4401,
      reason: 'auth:missing_token',
    });
    expect(await live(instance.url, 'not-a-token', counts).closed).toMatchObject({
      code: 4401,
      reason: 'auth:invalid_token',
    });
  });

  it('closes with 4403 a third-party token without the notification scope', async () => {
    const thirdParty = await buildThirdPartyToken(instance.orm, user, ['read:follow']);
    expect(await live(instance.url, thirdParty, counts).closed).toMatchObject({ code: 4403 });
    const allowed = live(
      instance.url,
      await buildThirdPartyToken(instance.orm, user, ['notification']),
      counts,
    );
    expect(await allowed.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
  });

  it('closes the connection once its token is revoked', async () => {
    const subscription = live(instance.url, token, counts);
    expect(await subscription.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
    const info = await rest(instance.app, 'GET', '/auth/token/info', undefined, { token });
    const revoked = await rest(instance.app, 'DELETE', `/auth/token/${info.body.reference}`, undefined, {
      token,
    });
    expect(revoked.status).toBe(200);
    expect(await subscription.closed).toMatchObject({ code: 4401, reason: 'token no longer valid' });
  });

  it('refuses a connection beyond the per-user limit with 4429', async () => {
    const first = live(instance.url, token, counts);
    const second = live(instance.url, token, counts);
    await first.next();
    await second.next();
    expect(await live(instance.url, token, counts).closed).toMatchObject({ code: 4429 });
  });

  it('closes a connection that runs no subscription for SUBSCRIPTION_IDLE_SECONDS with 4408', async () => {
    let closedWith: (event: { code: number }) => void = () => undefined;
    const closed = new Promise<{ code: number }>((resolve) => (closedWith = resolve));
    openClient(instance.url, token, { closed: (event) => closedWith(event as { code: number }) });
    expect(await closed).toMatchObject({ code: 4408 });
  });

  it('closes a connection on a message beyond SUBSCRIPTION_MAX_MESSAGE_BYTES (1009) or an invalid frame (1002), in one rate-limited log line', async () => {
    const oversized = async () => {
      const socket = new WebSocket(instance.url, 'graphql-transport-ws');
      await once(socket, 'open');
      const closed = new Promise<number>((resolve) => socket.once('close', resolve));
      socket.send(
        JSON.stringify({ type: 'connection_init', payload: { auth: token, padding: 'x'.repeat(4096) } }),
      );
      return closed;
    };
    const frameLines = () => logLines.filter((line) => String(line.msg).startsWith('websocket: '));
    // graphql-ws's own adapter wrote each of these to the console, with its stack.
    const consoleError = jest.spyOn(global.console, 'error').mockImplementation(() => undefined);
    try {
      expect(await oversized()).toBe(1009);
      expect(frameLines()).toEqual([
        expect.objectContaining({
          level: 40,
          msg: 'websocket: 1 connection closed on oversized or invalid frames in the last 1s',
          cause: 'Max payload size exceeded',
        }),
      ]);
      // Two more within 5 seconds: counted, and reported together once that window ends.
      const unmasked = Buffer.from([0x81, 0x02, 0x68, 0x69]);
      expect(await closeCodeAfterFrame(instance.url, unmasked)).toBe(1002);
      expect(await oversized()).toBe(1009);
      expect(frameLines()).toHaveLength(1);
      await until(() => frameLines().length === 2, 6_000);
      expect(frameLines()[1]).toMatchObject({ connections: 2, cause: 'Max payload size exceeded' });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });

  it('closes with 4409 on a subscription id used twice, however long the id (no reason over 123 bytes)', async () => {
    const connection = await rawConnection(instance.url, token);
    const closed = new Promise<number>((resolve) => connection.socket.once('close', resolve));
    const id = 'x'.repeat(200);
    connection.subscribe(id);
    connection.subscribe(id);
    // graphql-ws names the id in its reason: a reason over 123 bytes made ws throw (4500, an unexpected error).
    expect(await closed).toBe(4409);
    expect(logLines.filter((line) => line.msg === 'unexpected error')).toEqual([]);
  });

  it('refuses the upgrade with 503 beyond SUBSCRIPTION_MAX_CONNECTIONS', async () => {
    const sockets = [1, 2, 3].map(() => new WebSocket(instance.url, 'graphql-transport-ws'));
    try {
      await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once('open', resolve))));
      const refused = new WebSocket(instance.url, 'graphql-transport-ws');
      const status = await new Promise<number | undefined>((resolve) => {
        refused.once('unexpected-response', (_request, response) => resolve(response.statusCode));
        refused.once('open', () => resolve(undefined));
      });
      expect(status).toBe(503);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it('survives upgrades it refuses, malformed ones, and peers that reset', async () => {
    const { port } = new URL(instance.url);
    const upgrade = (path: string, reset: boolean) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `GET ${path} HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
              'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
          );
          if (reset) socket.resetAndDestroy();
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        socket.on('data', () => socket.end());
      });
    for (let round = 0; round < 20; round += 1) {
      await upgrade('/nope', true);
      await upgrade('http://[', false);
    }
    const subscription = live(instance.url, token, counts);
    expect(await subscription.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
  });

  it('forgets a connection that closes while its token is looked up', async () => {
    for (let round = 0; round < 3; round += 1) {
      const socket = new WebSocket(instance.url, 'graphql-transport-ws');
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { auth: token } }));
      socket.terminate();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Both of the user's two connections are still available.
    const first = live(instance.url, token, counts);
    const second = live(instance.url, token, counts);
    expect(await first.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
    expect(await second.next()).toEqual({ data: { notificationCount: { unseen: 0 } } });
  });

  it('refuses a subscription sent over HTTP, pointing to the WebSocket', async () => {
    const res = await gql(instance.app, counts, {}, { token });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'Subscriptions run over the WebSocket at /graphql (graphql-ws protocol), not over HTTP',
        extensions: { code: 'system:validation_error', http: { status: 400 } },
      }),
    ]);
  });

  it('runs only subscriptions over the WebSocket', async () => {
    const query = live(instance.url, token, '{ notificationCount { unseen } }');
    await expect(query.next()).rejects.toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'system:validation_error' }) }),
    ]);
  });
});

describe('subscription documents', () => {
  // Low limits: the feed's document is deeper than they allow, the count's costlier.
  const MAX_DEPTH = 2;
  const MAX_COST = 1;
  let instance: Instance;
  let token: string;

  beforeAll(async () => {
    instance = await startInstance({
      GRAPHQL_MAX_DEPTH: String(MAX_DEPTH),
      GRAPHQL_MAX_COST: String(MAX_COST),
    });
  });

  afterAll(() => instance?.close());

  beforeEach(async () => {
    await resetDatabase(instance.orm);
    token = await buildToken(instance.orm, await buildUser(instance.orm));
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.dispose()));
  });

  /** The errors a subscription is refused with (it must be refused). */
  async function refusalOf(query: string, variables: Record<string, unknown> = {}): Promise<unknown> {
    const results = openClient(instance.url, token).iterate({ query, variables });
    try {
      await results.next();
    } catch (errors) {
      return errors;
    }
    throw new Error(`not refused: ${query}`);
  }

  /** The errors /graphql answers `query` with, as a client reads them. */
  async function graphqlRefusal(query: string, variables: Record<string, unknown> = {}): Promise<unknown> {
    const res = await gql(instance.app, query, variables, { token });
    expect(res.status).toBe(400);
    return res.body.errors.map(
      ({ message, extensions }: { message: string; extensions: { code: string } }) => ({
        message,
        extensions: { code: extensions.code },
      }),
    );
  }

  const shapeOf = (errors: unknown) =>
    (errors as { message: string; extensions: { code: string } }[]).map(({ message, extensions }) => ({
      message,
      extensions: { code: extensions.code },
    }));

  it('over the depth limit: refused as /graphql refuses a query as deep', async () => {
    const refused = shapeOf(await refusalOf(created));
    expect(refused).toEqual([
      {
        message: `Query too complex: depth is 3, the maximum is ${MAX_DEPTH}`,
        extensions: { code: 'system:query_too_complex' },
      },
    ]);
    expect(await graphqlRefusal('{ manga(slug: "any") { genres { slug } } }')).toEqual([
      {
        message: `Query too complex: depth is 3, the maximum is ${MAX_DEPTH}`,
        extensions: { code: 'system:query_too_complex' },
      },
    ]);
  });

  it('over the cost limit: refused with its cost, as /graphql refuses a query', async () => {
    const schema = await buildAppSchema();
    const document = parse(counts);
    const cost = operationCost(schema, document, getOperationAST(document)!, {});
    expect(cost).toBeGreaterThan(MAX_COST);
    expect(shapeOf(await refusalOf(counts))).toEqual([
      {
        message: `Query too complex: cost is ${cost}, the maximum is ${MAX_COST}`,
        extensions: { code: 'system:query_too_complex' },
      },
    ]);
  });

  it('with a variable that does not coerce: refused as /graphql refuses it, quoting no value', async () => {
    const variables = { on: 'secret-yes' };
    const refused = shapeOf(
      await refusalOf(
        'subscription ($on: Boolean!) { notificationCount { unseen @include(if: $on) } }',
        variables,
      ),
    );
    expect(refused).toEqual(
      await graphqlRefusal('query ($on: Boolean!) { __typename @include(if: $on) }', variables),
    );
    expect(refused).toEqual([
      { message: expect.stringContaining('on'), extensions: { code: 'system:validation_error' } },
    ]);
    expect(JSON.stringify(refused)).not.toContain('secret-yes');
  });

  it('with a null where a value is required: refused before it runs, as /graphql refuses it', async () => {
    const variables = { on: null };
    const refused = shapeOf(
      await refusalOf(
        'subscription ($on: Boolean = true) { notificationCount { unseen @include(if: $on) } }',
        variables,
      ),
    );
    expect(refused).toEqual(
      await graphqlRefusal(
        'query ($on: Boolean = true) { notificationCount { unseen @include(if: $on) } }',
        variables,
      ),
    );
    expect(refused).toEqual([
      { message: 'Invalid field on in request path', extensions: { code: 'system:validation_error' } },
    ]);
  });

  it('with @include on its root field reading a variable: refused, not a failure of the connection', async () => {
    const refused = shapeOf(
      await refusalOf('subscription ($on: Boolean!) { notificationCount @include(if: $on) { unseen } }', {
        on: true,
      }),
    );
    expect(refused).toEqual([
      { message: expect.stringContaining('$on'), extensions: { code: 'system:validation_error' } },
    ]);
  });
});

describe('many subscriptions on one socket', () => {
  let instance: Instance;
  let user: User;
  let token: string;

  beforeAll(async () => {
    instance = await startInstance({
      SUBSCRIPTION_MAX_PER_SOCKET: '3',
      SUBSCRIPTION_MAX_TOTAL_PER_USER: '4',
    });
  });

  afterAll(() => instance?.close());

  beforeEach(async () => {
    await resetDatabase(instance.orm);
    user = await buildUser(instance.orm);
    token = await buildToken(instance.orm, user);
  });

  afterEach(() => {
    for (const socket of rawSockets.splice(0)) socket.terminate();
  });

  const tooMany = (max: number) => [
    {
      message: `Too many subscriptions running (at most ${max}); complete one first`,
      extensions: { code: 'subscription:too_many', http: { status: 429 } },
    },
  ];

  it('are refused beyond the limits per socket and per user, and all released when the sockets close', async () => {
    const first = await rawConnection(instance.url, token);
    const attempts = 1_000;
    for (let id = 0; id < attempts; id += 1) first.subscribe(String(id));
    await until(() => first.received('next').length + first.received('error').length === attempts);
    // The first three run; each later one gets an error message, and the socket stays open.
    expect(first.ids('next')).toEqual(['0', '1', '2']);
    expect(first.received('error')).toHaveLength(attempts - 3);
    expect(first.received('error')[0]).toEqual({ id: '3', type: 'error', payload: tooMany(3) });
    expect(first.socket.readyState).toBe(WebSocket.OPEN);
    expect(instance.subscriptions.running).toBe(3);
    expect(instance.built.feed.subscribers).toBe(3);

    // Those running still receive their events.
    const follower = await buildUser(instance.orm);
    const followerToken = await buildToken(instance.orm, follower);
    await rest(instance.app, 'PUT', `/follow/${user.username}`, undefined, { token: followerToken });
    await until(() => first.received('next').length === 6);
    const updates = first.received('next').slice(3);
    expect(updates.map((message) => message.id).sort()).toEqual(['0', '1', '2']);
    expect(updates.map((message) => message.payload)).toEqual(
      Array(3).fill({ data: { notificationCount: { unseen: 1 } } }),
    );

    // A completed subscription frees its place.
    first.complete('0');
    await until(() => instance.subscriptions.running === 2);
    first.subscribe('again');
    await until(() => first.received('next').some((message) => message.id === 'again'));

    // The user's other socket may run what is left of their four.
    const second = await rawConnection(instance.url, token);
    second.subscribe('a');
    second.subscribe('b');
    await until(() => second.received('next').length + second.received('error').length === 2);
    expect(second.ids('next')).toEqual(['a']);
    expect(second.received('error')).toEqual([{ id: 'b', type: 'error', payload: tooMany(4) }]);
    expect(instance.subscriptions.running).toBe(4);

    // Closed sockets release every subscription: iterators, the feed's entries, the user's count.
    first.socket.close();
    second.socket.terminate();
    await until(() => instance.subscriptions.running === 0);
    expect(instance.built.feed.subscribers).toBe(0);
    const third = await rawConnection(instance.url, token);
    for (const id of ['x', 'y', 'z', 'w']) third.subscribe(id);
    await until(() => third.received('next').length + third.received('error').length === 4);
    expect(third.ids('next')).toEqual(['x', 'y', 'z']);
    expect(third.ids('error')).toEqual(['w']);
    expect(instance.subscriptions.running).toBe(3);
  });
});

describe('the heap of live subscriptions', () => {
  let instance: Instance;
  let token: string;

  beforeAll(async () => {
    instance = await startInstance({ SUBSCRIPTION_MAX_MEMORY_MB: '1' });
  });

  afterAll(() => instance?.close());

  beforeEach(async () => {
    await resetDatabase(instance.orm);
    token = await buildToken(instance.orm, await buildUser(instance.orm));
  });

  afterEach(() => {
    for (const socket of rawSockets.splice(0)) socket.terminate();
  });

  /** A count subscription that selects its field `times` times: a document of about 450 bytes a token to hold. */
  const largeCounts = (times: number) => `subscription { notificationCount { ${'unseen '.repeat(times)}} }`;
  const unavailable = {
    message: 'Service temporarily unavailable, try again later',
    extensions: { code: 'system:unavailable', http: { status: 503 } },
  };

  it('counts each subscription with its document, and refuses one that would pass SUBSCRIPTION_MAX_MEMORY_MB', async () => {
    const connection = await rawConnection(instance.url, token);
    const document = largeCounts(600);
    const each = SUBSCRIPTION_BYTES + documentBytes(parse(document));
    // Three fit in 1 MB, a fourth does not (the per-socket limit, 10, is not reached).
    expect(3 * each).toBeLessThanOrEqual(1024 * 1024);
    expect(4 * each).toBeGreaterThan(1024 * 1024);
    for (const id of ['a', 'b', 'c', 'd']) connection.subscribe(id, document);
    await until(() => connection.received('next').length + connection.received('error').length === 4);
    expect(connection.ids('next')).toEqual(['a', 'b', 'c']);
    expect(connection.received('error')).toEqual([{ id: 'd', type: 'error', payload: [unavailable] }]);
    expect(instance.subscriptions.bytes).toBe(3 * each);
    // A small subscription still fits; a completed one frees its share.
    connection.subscribe('small');
    await until(() => connection.ids('next').includes('small'));
    connection.complete('a');
    await until(() => instance.subscriptions.running === 3);
    connection.subscribe('again', document);
    await until(() => connection.ids('next').includes('again'));
    // A closed socket gives back all it held.
    connection.socket.terminate();
    await until(() => instance.subscriptions.running === 0);
    expect(instance.subscriptions.bytes).toBe(0);
  });

  it('closes with 4409 an id used again before its first subscription has ended, and forgets both', async () => {
    const connection = await rawConnection(instance.url, token);
    const closed = new Promise<number>((resolve) => connection.socket.once('close', resolve));
    // In one go: graphql-ws takes the id again as soon as `complete` removed the first,
    // which may still be starting, and would then run on unseen, never completed.
    connection.subscribe('x', largeCounts(100));
    connection.complete('x');
    connection.subscribe('x');
    expect(await closed).toBe(4409);
    await until(() => instance.subscriptions.running === 0);
    expect(instance.subscriptions.bytes).toBe(0);
    expect(instance.built.feed.subscribers).toBe(0);
  });
});

describe('an unexpected failure in a subscription', () => {
  it('is masked as system:internal_error and logged once, with the connection id and the cause', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const instance = await startInstance({}, log);
    const connection = instance.orm.em.getConnection();
    try {
      await resetDatabase(instance.orm);
      const user = await buildUser(instance.orm);
      const token = await buildToken(instance.orm, user);
      const client = openClient(instance.url, token);
      await new Promise<void>((resolve) => client.on('connected', () => resolve()));
      // Connected; the subscription's own token look-up now fails inside the database.
      await connection.execute('alter table auth_token rename column secret_hash to secret_hash_hidden');
      try {
        const results = client.iterate({ query: counts });
        // Bounded, so that the column is restored whatever happens.
        const outcome = await Promise.race([
          results.next().then(
            (result) => result.value as unknown,
            (errors: unknown) => ({ errors }),
          ),
          new Promise((resolve) => setTimeout(() => resolve('nothing within 5 s'), 5_000).unref()),
        ]);
        expect(outcome).toMatchObject({
          errors: [
            expect.objectContaining({
              extensions: expect.objectContaining({ code: 'system:internal_error' }),
            }),
          ],
        });
        expect(JSON.stringify(outcome)).not.toContain('secret_hash');
      } finally {
        await connection.execute('alter table auth_token rename column secret_hash_hidden to secret_hash');
      }
      const unexpected = lines.filter((line) => line.msg === 'unexpected error');
      expect(unexpected).toHaveLength(1);
      expect(unexpected[0]).toMatchObject({ level: 50, requestId: `ws-${user.reference}` });
      expect(JSON.stringify(unexpected[0].err)).toContain('secret_hash');
    } finally {
      await Promise.all(opened.splice(0).map((client) => client.dispose()));
      await instance.close();
    }
  });

  it('while connecting closes the connection with 4500 and the code, and is logged once, not on the console', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const instance = await startInstance({}, log);
    const connection = instance.orm.em.getConnection();
    const consoleError = jest.spyOn(global.console, 'error').mockImplementation(() => undefined);
    try {
      await resetDatabase(instance.orm);
      const token = await buildToken(instance.orm, await buildUser(instance.orm));
      // The connection's token look-up fails inside the database.
      await connection.execute('alter table auth_token rename column secret_hash to secret_hash_hidden');
      try {
        expect(await live(instance.url, token, counts).closed).toMatchObject({
          code: 4500,
          reason: 'system:internal_error',
        });
      } finally {
        await connection.execute('alter table auth_token rename column secret_hash_hidden to secret_hash');
      }
      expect(lines.filter((line) => line.msg === 'unexpected error')).toEqual([
        expect.objectContaining({
          level: 50,
          requestId: 'ws',
          err: expect.objectContaining({ code: '42703' }),
        }),
      ]);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await Promise.all(opened.splice(0).map((client) => client.dispose()));
      await instance.close();
    }
  });
});

describe('subscribers that fall behind', () => {
  it('are dropped, furthest behind first, once the events waiting for all of them reach MAX_QUEUED_EVENTS', async () => {
    const orm = await openTestOrm();
    const log = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
    const { bus, feed } = await startLiveNotifications(orm, undefined, log);
    /** `count` distinct changes for `user` (PostgreSQL delivers identical notifications of one transaction once). */
    const changes = (user: User, count: number) =>
      Array.from({ length: count }, () => ({ user: user.reference, created: [randomUUID()] }));
    try {
      await resetDatabase(orm);
      const [reader, ...stalledUsers] = await Promise.all([1, 2, 3].map(() => buildUser(orm)));
      const dropped = new Set<string>();
      const readerCounts = feed.counts(reader.reference, () => dropped.add('reader'));
      stalledUsers.forEach((user, i) => feed.counts(user.reference, () => dropped.add(`stalled ${i}`)));
      expect((await readerCounts.next()).done).toBe(false);
      // Two stalled subscribers, each below its own limit (100), fill the feed's backlog:
      // their first count and 63 changes each.
      const each = MAX_QUEUED_EVENTS / 2;
      await bus.publish(stalledUsers.flatMap((user) => changes(user, each - 1)));
      await until(() => feed.queued === MAX_QUEUED_EVENTS);
      expect(dropped).toEqual(new Set());
      // The reader, nothing of its own waiting, gets a change: the furthest behind goes instead.
      await bus.publish(changes(reader, 1));
      await until(() => dropped.size > 0);
      expect(dropped.has('reader')).toBe(false);
      expect(dropped.size).toBe(1);
      expect(feed.queued).toBe(each + 1);
      expect((await readerCounts.next()).done).toBe(false);
      expect(feed.queued).toBe(each);
    } finally {
      await feed.close();
      await orm.close();
    }
  });
});

describe('a subscriber that falls behind', () => {
  it('is dropped instead of buffered without bound', async () => {
    const orm = await openTestOrm();
    const log = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
    const { bus, feed } = await startLiveNotifications(orm, undefined, log);
    try {
      await resetDatabase(orm);
      const user = await buildUser(orm);
      let dropped = 0;
      const counts = feed.counts(user.reference, () => (dropped += 1));
      // More changes than a subscriber may have waiting, none of them read.
      await bus.publish(
        Array.from({ length: 120 }, () => ({ user: user.reference, created: [randomUUID()] })),
      );
      for (let waited = 0; dropped === 0 && waited < 5_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(dropped).toBe(1);
      // What was waiting is gone with it.
      expect(await counts.next()).toEqual({ value: undefined, done: true });
    } finally {
      await feed.close();
      await orm.close();
    }
  });
});

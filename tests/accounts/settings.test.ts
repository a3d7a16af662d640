import { Follow } from '../../src/accounts/follow.entity';
import { hashPassword } from '../../src/accounts/passwords';
import type { User } from '../../src/accounts/user.entity';
import { hashSecret } from '../../src/common/auth/secrets';
import { NOTIFICATION_TYPES } from '../../src/common/enums';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildThirdPartyToken, buildToken, buildUser, buildWatchEntry } from '../factories';
import { notificationsOf } from '../notifications/helpers';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, shapeProblems, USER } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin } from '../setup/list-route';
import { expectAbout, tokenInMail, useAccountsApp } from './helpers';

/**
 * The settings pages (pages.md "Settings /settings/*"): GET and PUT /settings/notifications,
 * PUT /settings/{description,username,email,password} and DELETE /settings/image/{image_type}
 * (GraphQL `notificationSettings`, `updateNotificationSettings`, `updateDescription`,
 * `updateUsername`, `updateEmail`, `updatePassword`, `deleteImage`), and the activation of a
 * changed email (POST /auth/activation). All require authentication; the checks run
 * authentication → validation → scope → the rules.
 */
const t = useTestApp();

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PASSWORD = 'correct horse';

// ---------------------------------------------------------------------------
// Routes and operations.

type Method = 'GET' | 'PUT' | 'DELETE';
const routeOf = (method: Method, path: string): RestRoute =>
  restRoutes.find((r) => r.method === method && r.path === path)!;

const ROUTES = {
  getNotifications: routeOf('GET', '/settings/notifications'),
  notifications: routeOf('PUT', '/settings/notifications'),
  description: routeOf('PUT', '/settings/description'),
  username: routeOf('PUT', '/settings/username'),
  email: routeOf('PUT', '/settings/email'),
  password: routeOf('PUT', '/settings/password'),
  image: routeOf('DELETE', '/settings/image/{image_type}'),
} as const;
type OpName = keyof typeof ROUTES;
const getNotificationsTwin = executedTwin(ROUTES.getNotifications.document);

/** One request of a settings endpoint, as REST sends it and as its GraphQL document does. */
interface Op {
  name: OpName;
  route: RestRoute;
  path: string;
  body?: unknown;
  variables: Record<string, unknown>;
}

const op = {
  getNotifications: (): Op => ({
    name: 'getNotifications',
    route: ROUTES.getNotifications,
    path: '/settings/notifications',
    variables: {},
  }),
  notifications: (body: unknown): Op => put('notifications', body),
  description: (body: unknown): Op => put('description', body),
  username: (body: unknown): Op => put('username', body),
  email: (body: unknown): Op => put('email', body),
  password: (body: unknown): Op => put('password', body),
  image: (imageType: string): Op => ({
    name: 'image',
    route: ROUTES.image,
    path: `/settings/image/${imageType}`,
    variables: { image_type: imageType },
  }),
};

function put(name: 'notifications' | 'description' | 'username' | 'email' | 'password', body: unknown): Op {
  return { name, route: ROUTES[name], path: `/settings/${name}`, body, variables: { input: body } };
}

/** A valid request of each endpoint (the email and username ones unique per call). */
let unique = 0;
function validOp(name: OpName): Op {
  unique += 1;
  switch (name) {
    case 'getNotifications':
      return op.getNotifications();
    case 'notifications':
      return op.notifications({ ignored_notifications: ['follow'] });
    case 'description':
      return op.description({ description: 'Hello' });
    case 'username':
      return op.username({ username: `renamed_${unique}` });
    case 'email':
      return op.email({ email: `changed${unique}@example.com` });
    case 'password':
      return op.password({ password: 'another secret' });
    case 'image':
      return op.image('cover');
  }
}

/** A request of each endpoint that the body (or path) rules refuse, and the field they name. */
const INVALID: Record<Exclude<OpName, 'getNotifications'>, { op: Op; message: string }> = {
  notifications: {
    op: op.notifications({ ignored_notifications: ['nope'] }),
    message: 'Invalid field ignored_notifications in request body',
  },
  description: {
    op: op.description({ description: 'x'.repeat(141) }),
    message: 'Invalid field description in request body',
  },
  username: {
    op: op.username({ username: '1_bad_name' }),
    message: 'Invalid field username in request body',
  },
  email: { op: op.email({ email: 'not-an-address' }), message: 'Invalid field email in request body' },
  password: { op: op.password({ password: 'short' }), message: 'Invalid field password in request body' },
  image: { op: op.image('banner'), message: 'Invalid field image_type in request path' },
};

const ALL_OPS = Object.keys(ROUTES) as OpName[];
const WRITE_OPS = ALL_OPS.filter((name) => name !== 'getNotifications') as Exclude<
  OpName,
  'getNotifications'
>[];

const callRest = (o: Op, as: CallOptions = {}) => rest(t.app, o.route.method as Method, o.path, o.body, as);
const callGql = (o: Op, as: CallOptions = {}, document = o.route.document) =>
  gql(t.app, document, o.variables, as);

// ---------------------------------------------------------------------------
// Errors.

type Expected = { status: number; code: string; message: string };
const ERR = {
  missing: { status: 401, code: 'auth:missing_token', message: 'Auth token is missing' },
  invalid: { status: 401, code: 'auth:invalid_token', message: 'Auth token is invalid' },
  expired: { status: 401, code: 'auth:token_expired', message: 'Token has expired' },
  banned: { status: 403, code: 'auth:banned', message: 'User is banned' },
  deleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
  denied: { status: 403, code: 'permission:denied', message: "You don't have permission for this action" },
  usernameCooldown: {
    status: 429,
    code: 'settings:username_cooldown',
    message: 'Username can be changed once an hour',
  },
  emailCooldown: { status: 429, code: 'settings:email_cooldown', message: 'Email can be changed once a day' },
  usernameTaken: { status: 409, code: 'settings:username_taken', message: 'Username already taken' },
  reserved: { status: 400, code: 'settings:invalid_username', message: 'This username is reserved' },
  emailExists: { status: 409, code: 'auth:email_exists', message: 'Email already in use' },
  userNotFound: { status: 404, code: 'user:not_found', message: 'User not found' },
} as const;

const UK: Record<string, string> = {
  'settings:username_cooldown': 'Ім’я користувача можна змінювати раз на годину',
  'settings:email_cooldown': 'Пошту можна змінювати раз на добу',
  'settings:username_taken': 'Це ім’я користувача вже зайняте',
  'settings:invalid_username': 'Це ім’я користувача зарезервоване',
  'auth:email_exists': 'Ця пошта вже використовується',
  'permission:denied': 'У вас немає дозволу на цю дію',
};

const validation = (message: string): Expected => ({ status: 400, code: 'system:validation_error', message });

/** The single GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Expected {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/**
 * `o` fails with `expected` over REST and over GraphQL (the route's document; for GET
 * also its executed twin), with the same JSON.
 */
async function expectFailure(o: Op, as: CallOptions, expected: Expected): Promise<void> {
  const viaRest = await callRest(o, as);
  expect({ route: o.path, status: viaRest.status, body: viaRest.body }).toEqual({
    route: o.path,
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  const documents =
    o.name === 'getNotifications' ? [o.route.document, getNotificationsTwin] : [o.route.document];
  for (const document of documents) {
    const viaGql = await callGql(o, as, document);
    expect({ route: o.path, ...graphError(viaGql.body) }).toEqual({ route: o.path, ...expected });
    expect(viaGql.body.data?.[o.route.rootField] ?? null).toBeNull();
  }
}

/** `o` succeeds over REST; returns the answer. */
async function expectRest(o: Op, as: CallOptions): Promise<Json> {
  const res = await callRest(o, as);
  expect({ route: o.path, status: res.status, body: res.body }).toEqual({
    route: o.path,
    status: 200,
    body: expect.anything(),
  });
  return res.body as Json;
}

/** `o` succeeds over GraphQL (the route's document unless given); returns `data[rootField]`. */
async function expectGql(o: Op, as: CallOptions, document = o.route.document): Promise<Json> {
  const res = await callGql(o, as, document);
  expect({ route: o.path, errors: res.body.errors }).toEqual({ route: o.path, errors: undefined });
  expect(res.status).toBe(200);
  return res.body.data[o.route.rootField] as Json;
}

/** An idempotent `o` answers the same JSON over REST and GraphQL; returns it. */
async function expectBoth(o: Op, as: CallOptions): Promise<Json> {
  const viaRest = await expectRest(o, as);
  expect(await expectGql(o, as)).toEqual(viaRest);
  if (o.name === 'getNotifications') expect(await expectGql(o, as, getNotificationsTwin)).toEqual(viaRest);
  return viaRest;
}

// ---------------------------------------------------------------------------
// Callers and stored rows.

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

interface Row {
  username: string;
  email: string;
  email_confirmed: boolean;
  role: string;
  pending_email: string | null;
  description: string | null;
  avatar_path: string | null;
  cover: string | null;
  password_hash: string;
  username_changed: Date | null;
  email_changed: Date | null;
  activation_token_hash: string | null;
  activation_expires: Date | null;
  ignored_notifications: string[];
}

/** The stored account, every column a settings write may touch (not `last_active`). */
async function rowOf(user: User): Promise<Row> {
  const [row] = await sql<Row>(
    `select username, email, email_confirmed, role, pending_email, description, avatar_path, cover,
            password_hash, username_changed, email_changed, activation_token_hash, activation_expires,
            ignored_notifications
       from "user" where reference = ?`,
    [user.reference],
  );
  // Raw statements answer timestamps as text.
  const at = (value: Date | null) => (value === null ? null : new Date(value));
  return {
    ...row,
    username_changed: at(row.username_changed),
    email_changed: at(row.email_changed),
    activation_expires: at(row.activation_expires),
  };
}

/** `row` without `keys`. */
const without = (row: Row, keys: (keyof Row)[]): Partial<Row> =>
  Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key as keyof Row)));

/** Moves a stored change time `ms` into the past (the cooldowns read it). */
const rewind = (user: User, column: 'username_changed' | 'email_changed', ms: number) =>
  sql(`update "user" set ${column} = ? where reference = ?`, [new Date(Date.now() - ms), user.reference]);

/** The User (no is_followed) the writes answer, for an account built with `o`. */
const userJson = (user: User, o: Partial<Json> = {}): Json => ({
  reference: user.reference,
  created: seconds(user.created),
  updated: user.lists_updated ? seconds(user.lists_updated) : null,
  description: user.description,
  username: user.username,
  avatar: user.avatar_path ? `https://cdn.test/${user.avatar_path}` : 'https://cdn.test/avatar.jpg',
  cover: user.cover ? `https://cdn.test${user.cover}` : null,
  active: true,
  role: user.role,
  ...o,
});

/** Every User field filled (for the shape checks). */
const FILLED: Partial<User> = {
  description: 'About me',
  avatar_path: 'avatars/me.png',
  cover: '/covers/me.jpg',
  lists_updated: new Date('2024-02-03T04:05:06Z'),
  created: new Date('2023-05-06T07:08:09Z'),
};

const login = (body: Json) => rest(t.app, 'POST', '/auth/login', body);

/**
 * Rows around `user` that a settings page must not read one by one: 25 follows each way,
 * 25 watch entries, 25 other accounts, and every notification type ignored.
 */
async function crowd(user: User): Promise<void> {
  const em = t.orm.em.fork();
  const others = await Promise.all(Array.from({ length: 25 }, () => buildUser(t.orm)));
  for (const other of others) {
    em.create(Follow, { follower: user.reference, followed: other.reference } as never);
    em.create(Follow, { follower: other.reference, followed: user.reference } as never);
  }
  await em.flush();
  for (let i = 0; i < 25; i += 1) await buildWatchEntry(t.orm, user, await buildAnime(t.orm));
  await sql(`update "user" set ignored_notifications = string_to_array(?, ',') where reference = ?`, [
    NOTIFICATION_TYPES.join(','),
    user.reference,
  ]);
}

// ===========================================================================

describe('GET /settings/notifications', () => {
  it('answers exactly {ignored_notifications}: the stored list, in its stored order', async () => {
    const { as } = await member({ ignored_notifications: ['follow', 'comment_reply', 'article_vote'] });
    await member({ ignored_notifications: ['system_update'] });

    const body = await expectBoth(op.getNotifications(), as);

    expect(sortedKeys(body)).toEqual(['ignored_notifications']);
    expect(body).toEqual({ ignored_notifications: ['follow', 'comment_reply', 'article_vote'] });
  });

  it('answers [] for an account that ignores nothing, whatever other accounts ignore', async () => {
    await member({ ignored_notifications: ['follow', 'system_update'] });
    const { as } = await member();
    expect(await expectBoth(op.getNotifications(), as)).toEqual({ ignored_notifications: [] });
  });

  it('answers every type for an account that ignores them all', async () => {
    const { as } = await member({ ignored_notifications: [...NOTIFICATION_TYPES] });
    const body = await expectBoth(op.getNotifications(), as);
    expect(body.ignored_notifications).toEqual([...NOTIFICATION_TYPES]);
    expect(NOTIFICATION_TYPES).toHaveLength(15);
  });

  it('ignores a body and unknown query parameters', async () => {
    const { as } = await member({ ignored_notifications: ['follow'] });
    const res = await rest(
      t.app,
      'GET',
      '/settings/notifications?page=0&x=1',
      { ignored_notifications: 'x' },
      as,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ignored_notifications: ['follow'] });
  });

  it('is never cached: private, no-store', async () => {
    const { as } = await member({ ignored_notifications: ['follow'] });
    const res = await callRest(op.getNotifications(), as);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('reads the token from the auth cookie too', async () => {
    const { as } = await member({ ignored_notifications: ['schedule_anime'] });
    const res = await callRest(op.getNotifications(), { cookie: as.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ignored_notifications: ['schedule_anime'] });
  });

  describe('scope read:user-details', () => {
    it.each([[['read:user-details']], [['user-details']], [['all']]])(
      'serves a third-party token with %j',
      async (scope) => {
        const { user } = await member({ ignored_notifications: ['follow'] });
        const body = await expectBoth(op.getNotifications(), await thirdParty(user, scope));
        expect(body).toEqual({ ignored_notifications: ['follow'] });
      },
    );

    it.each([[['update:user-details']], [['read:follow', 'read:notification', 'notification']], [[]]])(
      'answers 403 permission:denied to a third-party token with %j, on every door',
      async (scope) => {
        const { user } = await member({ ignored_notifications: ['follow'] });
        await expectFailure(op.getNotifications(), await thirdParty(user, scope), ERR.denied);
      },
    );
  });
});

// ===========================================================================

describe('PUT /settings/notifications', () => {
  it('replaces the stored list and answers exactly {ignored_notifications}; GET and GraphQL `me` show it', async () => {
    const { user, as } = await member({ ignored_notifications: ['follow', 'comment_reply'] });

    const body = await expectRest(
      op.notifications({ ignored_notifications: ['article_vote', 'comment_tag'] }),
      as,
    );

    expect(sortedKeys(body)).toEqual(['ignored_notifications']);
    expect(body).toEqual({ ignored_notifications: ['article_vote', 'comment_tag'] });
    expect((await rowOf(user)).ignored_notifications).toEqual(['article_vote', 'comment_tag']);
    expect(await expectBoth(op.getNotifications(), as)).toEqual(body);
    const me = await gql(t.app, 'query { me { ignored_notifications } }', {}, as);
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data.me).toEqual(body);
  });

  it('an empty list clears it', async () => {
    const { user, as } = await member({ ignored_notifications: ['follow', 'system_update'] });
    expect(await expectRest(op.notifications({ ignored_notifications: [] }), as)).toEqual({
      ignored_notifications: [],
    });
    expect((await rowOf(user)).ignored_notifications).toEqual([]);
  });

  it('accepts every notification type at once', async () => {
    const { user, as } = await member();
    const body = await expectRest(op.notifications({ ignored_notifications: [...NOTIFICATION_TYPES] }), as);
    expect(body).toEqual({ ignored_notifications: [...NOTIFICATION_TYPES] });
    expect((await rowOf(user)).ignored_notifications).toEqual([...NOTIFICATION_TYPES]);
  });

  it('changes only the caller’s list', async () => {
    const { as } = await member();
    const { user: other } = await member({ ignored_notifications: ['follow'] });
    await expectRest(op.notifications({ ignored_notifications: ['comment_vote'] }), as);
    expect((await rowOf(other)).ignored_notifications).toEqual(['follow']);
  });

  describe('hikka_update, the alias of system_update', () => {
    it('is stored and answered as system_update, over REST and GraphQL', async () => {
      const { user, as } = await member();
      const o = op.notifications({ ignored_notifications: ['follow', 'hikka_update'] });
      const viaRest = await expectRest(o, as);
      expect(viaRest).toEqual({ ignored_notifications: ['follow', 'system_update'] });
      expect((await rowOf(user)).ignored_notifications).toEqual(['follow', 'system_update']);
      expect(await expectGql(o, as)).toEqual(viaRest);
      expect(await expectBoth(op.getNotifications(), as)).toEqual(viaRest);
    });

    it.each([
      [['hikka_update', 'system_update']],
      [['system_update', 'hikka_update']],
      [['hikka_update', 'hikka_update']],
    ])('%j repeats a type → 400, on every door, and the list stays', async (types) => {
      const { user, as } = await member({ ignored_notifications: ['follow'] });
      await expectFailure(
        op.notifications({ ignored_notifications: types }),
        as,
        validation('Invalid field ignored_notifications in request body'),
      );
      expect((await rowOf(user)).ignored_notifications).toEqual(['follow']);
    });
  });

  describe('validation', () => {
    it.each([
      [{ ignored_notifications: ['nope'] }, 'ignored_notifications'],
      [{ ignored_notifications: ['Follow'] }, 'ignored_notifications'],
      [{ ignored_notifications: ['follow', 'follow'] }, 'ignored_notifications'],
      [{ ignored_notifications: ['follow', 'comment_reply', 'follow'] }, 'ignored_notifications'],
      [{ ignored_notifications: ['follow', ''] }, 'ignored_notifications'],
      [{ ignored_notifications: ['watch'] }, 'ignored_notifications'],
    ])('%j → 400 Invalid field %s in request body, on every door', async (body, field) => {
      const { user, as } = await member({ ignored_notifications: ['article_comment'] });
      await expectFailure(op.notifications(body), as, validation(`Invalid field ${field} in request body`));
      expect((await rowOf(user)).ignored_notifications).toEqual(['article_comment']);
    });

    it.each([
      [{}, 'Invalid field ignored_notifications in request body'],
      [{ ignored_notifications: null }, 'Invalid field ignored_notifications in request body'],
      [{ ignored_notifications: 'follow' }, 'Invalid field ignored_notifications in request body'],
      [{ ignored_notifications: [1] }, 'Invalid field ignored_notifications in request body'],
      [{ ignored_notifications: { follow: true } }, 'Invalid field ignored_notifications in request body'],
      [{ ignored_notifications: [], extra: 1 }, 'Invalid field extra in request body'],
      [{ ignored_notifications: [], ignored: [] }, 'Invalid field ignored in request body'],
      [undefined, 'Invalid field in request body'],
      [[], 'Invalid field in request body'],
    ])('REST %j → 400 %s', async (body, message) => {
      const { user, as } = await member({ ignored_notifications: ['article_comment'] });
      const res = await callRest(op.notifications(body), as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'system:validation_error', message });
      expect((await rowOf(user)).ignored_notifications).toEqual(['article_comment']);
    });

    it('says it in Ukrainian', async () => {
      const { as } = await member();
      const res = await callRest(op.notifications({ ignored_notifications: ['nope'] }), {
        ...as,
        language: 'uk',
      });
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: 'Некоректне поле ignored_notifications у запиті body',
      });
    });
  });

  describe('scope update:user-details: a group, every member required', () => {
    const MEMBERS = [
      'update:user-details:email',
      'update:user-details:password',
      'update:user-details:username',
      'update:user-details:description',
      'delete:user-details:image',
      'delete:user-details:cover',
    ];

    it.each([[['update:user-details']], [['user-details']], [MEMBERS], [['all']]])(
      'serves a third-party token with %j',
      async (scope) => {
        const { user } = await member();
        const as = await thirdParty(user, scope);
        const body = await expectRest(op.notifications({ ignored_notifications: ['follow'] }), as);
        expect(body).toEqual({ ignored_notifications: ['follow'] });
        expect((await rowOf(user)).ignored_notifications).toEqual(['follow']);
      },
    );

    it.each(MEMBERS)('answers 403 to a token holding every member but %s; the list stays', async (left) => {
      const { user } = await member({ ignored_notifications: ['comment_tag'] });
      const as = await thirdParty(user, [...MEMBERS.filter((s) => s !== left), 'read:user-details']);
      await expectFailure(op.notifications({ ignored_notifications: ['follow'] }), as, ERR.denied);
      expect((await rowOf(user)).ignored_notifications).toEqual(['comment_tag']);
    });

    it('answers 403 to a token with read:user-details only, in Ukrainian too', async () => {
      const { user } = await member();
      const as = await thirdParty(user, ['read:user-details', 'notification']);
      await expectFailure(op.notifications({ ignored_notifications: [] }), as, ERR.denied);
      await expectFailure(
        op.notifications({ ignored_notifications: [] }),
        { ...as, language: 'uk' },
        { ...ERR.denied, message: UK['permission:denied'] },
      );
    });

    it('validates before the scope: a bad body is 400 even without the scope', async () => {
      const { user } = await member();
      const as = await thirdParty(user, ['read:user-details']);
      await expectFailure(
        op.notifications({ ignored_notifications: ['nope'] }),
        as,
        validation('Invalid field ignored_notifications in request body'),
      );
    });
  });

  describe('the effect: an ignored type is not notified', () => {
    it('a follow makes no follow notification while `follow` is ignored, and one once it is not', async () => {
      const { user, as } = await member();
      await expectRest(op.notifications({ ignored_notifications: ['follow', 'comment_reply'] }), as);

      const first = await member();
      expect((await rest(t.app, 'PUT', `/follow/${user.username}`, undefined, first.as)).status).toBe(200);
      expect(await notificationsOf(t.orm, user)).toEqual([]);

      await expectRest(op.notifications({ ignored_notifications: ['comment_reply'] }), as);
      const second = await member();
      expect((await rest(t.app, 'PUT', `/follow/${user.username}`, undefined, second.as)).status).toBe(200);
      const notified = await notificationsOf(t.orm, user);
      expect(notified.map((n) => [n.notification_type, n.initiator_user?.reference])).toEqual([
        ['follow', second.user.reference],
      ]);
    });
  });
});

// ===========================================================================

describe('PUT /settings/description', () => {
  it('stores the text and answers exactly the caller’s User (no email, no is_followed)', async () => {
    const { user, as } = await member(FILLED);

    const body = await expectRest(op.description({ description: 'Watching slowly.\nVery slowly.' }), as);

    expect(sortedKeys(body)).toEqual(keysOf(USER));
    expect(shapeProblems(body, USER, 'updateDescription')).toEqual([]);
    expect(body).toEqual(userJson(user, { description: 'Watching slowly.\nVery slowly.' }));
    expect((await rowOf(user)).description).toBe('Watching slowly.\nVery slowly.');
    const profile = await rest(t.app, 'GET', `/user/${user.username}`);
    expect(profile.body.description).toBe('Watching slowly.\nVery slowly.');
  });

  it.each([
    ['\n\nHello\n', 'Hello'],
    ['\nHello\n\nworld\n\n\n', 'Hello\n\nworld'],
    ['Hello', 'Hello'],
    ['\r\nHello\r\n', 'Hello'],
    ['  Hello  ', '  Hello  '],
    ['\n\n', null],
    ['\n', null],
    ['', null],
    [null, null],
  ])('%j is stored as %j (leading and trailing newlines stripped; empty → null)', async (given, stored) => {
    const { user, as } = await member({ description: 'Before' });
    const body = await expectRest(op.description({ description: given }), as);
    expect(body.description).toBe(stored);
    expect((await rowOf(user)).description).toBe(stored);
  });

  it('an empty body {} clears the text', async () => {
    const { user, as } = await member({ description: 'Before' });
    expect((await expectRest(op.description({}), as)).description).toBeNull();
    expect((await rowOf(user)).description).toBeNull();
  });

  it('takes 140 characters (non-Latin ones too) and refuses 141', async () => {
    const { user, as } = await member({ description: 'Before' });
    const longest = 'ї'.repeat(140);
    expect((await expectRest(op.description({ description: longest }), as)).description).toBe(longest);
    await expectFailure(
      op.description({ description: 'ї'.repeat(141) }),
      as,
      validation('Invalid field description in request body'),
    );
    expect((await rowOf(user)).description).toBe(longest);
  });

  it.each([
    [{ description: 5 }, 'Invalid field description in request body'],
    [{ description: ['x'] }, 'Invalid field description in request body'],
    [{ description: 'x'.repeat(141) }, 'Invalid field description in request body'],
    [{ description: 'ok', about: 'x' }, 'Invalid field about in request body'],
    [undefined, 'Invalid field in request body'],
    ['"text"', 'Invalid field in request body'],
  ])('REST %j → 400 %s; the text stays', async (body, message) => {
    const { user, as } = await member({ description: 'Before' });
    const res =
      body === '"text"'
        ? await rest(t.app, 'PUT', '/settings/description', undefined, as)
            .set('Content-Type', 'application/json')
            .send(body)
        : await callRest(op.description(body), as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'system:validation_error', message });
    expect((await rowOf(user)).description).toBe('Before');
  });

  it('needs no permission: a not yet activated account may set it', async () => {
    const { user, as } = await member({ role: 'not_activated', email_confirmed: false });
    const body = await expectRest(op.description({ description: 'New here' }), as);
    expect(body).toMatchObject({ description: 'New here', role: 'not_activated' });
    expect((await rowOf(user)).description).toBe('New here');
  });

  it('REST ≡ GraphQL: the same User, and the same errors', async () => {
    const { as } = await member(FILLED);
    const body = await expectBoth(op.description({ description: '\nSame on both doors\n' }), as);
    expect(body.description).toBe('Same on both doors');
    await expectFailure(
      op.description({ description: 'x'.repeat(141) }),
      { ...as, language: 'uk' },
      validation('Некоректне поле description у запиті body'),
    );
  });

  describe('scope update:user-details:description', () => {
    it.each([[['update:user-details:description']], [['update:user-details']], [['user-details']]])(
      'serves a third-party token with %j',
      async (scope) => {
        const { user } = await member();
        const body = await expectRest(
          op.description({ description: 'Scoped' }),
          await thirdParty(user, scope),
        );
        expect(body).toEqual(userJson(user, { description: 'Scoped' }));
      },
    );

    it.each([
      [['read:user-details']],
      [
        [
          'update:user-details:email',
          'update:user-details:password',
          'update:user-details:username',
          'delete:user-details:image',
          'delete:user-details:cover',
        ],
      ],
      [[]],
    ])('answers 403 to a third-party token with %j; the text stays', async (scope) => {
      const { user } = await member({ description: 'Before' });
      await expectFailure(
        op.description({ description: 'After' }),
        await thirdParty(user, scope),
        ERR.denied,
      );
      expect((await rowOf(user)).description).toBe('Before');
    });
  });
});

// ===========================================================================

describe('PUT /settings/username', () => {
  it('renames the account, records the change time and answers the User', async () => {
    const { user, as } = await member({ ...FILLED, username: 'Old_Name' });
    const before = await rowOf(user);
    expect(before.username_changed).toBeNull();

    const body = await expectRest(op.username({ username: 'New_Name' }), as);

    expect(sortedKeys(body)).toEqual(keysOf(USER));
    expect(shapeProblems(body, USER, 'updateUsername')).toEqual([]);
    expect(body).toEqual(userJson(user, { username: 'New_Name' }));
    const after = await rowOf(user);
    expect(after.username).toBe('New_Name');
    expectAbout(after.username_changed!, Date.now());
    expect({ ...after, username: before.username, username_changed: null }).toEqual(before);
  });

  it('the new name finds the account (any case), the old one no longer does', async () => {
    const { user, as } = await member({ username: 'Old_Name' });
    await expectRest(op.username({ username: 'New_Name' }), as);

    for (const asked of ['New_Name', 'new_name']) {
      const found = await rest(t.app, 'GET', `/user/${asked}`);
      expect(found.status).toBe(200);
      expect([found.body.reference, found.body.username]).toEqual([user.reference, 'New_Name']);
    }
    const old = await rest(t.app, 'GET', '/user/Old_Name');
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ code: ERR.userNotFound.code, message: ERR.userNotFound.message });
    const me = await rest(t.app, 'GET', '/user/me', undefined, as);
    expect(me.body.username).toBe('New_Name');
  });

  it('frees the old name: another account may take it', async () => {
    const { as } = await member({ username: 'Old_Name' });
    await expectRest(op.username({ username: 'New_Name' }), as);
    const { user: other, as: otherAs } = await member();
    expect((await expectRest(op.username({ username: 'old_name' }), otherAs)).username).toBe('old_name');
    expect((await rowOf(other)).username).toBe('old_name');
  });

  it('logs in with the new name', async () => {
    const { as } = await member({ username: 'Old_Name', password_hash: await hashPassword(PASSWORD) });
    await expectRest(op.username({ username: 'New_Name' }), as);
    expect((await login({ username: 'new_name', password: PASSWORD })).status).toBe(200);
    const old = await login({ username: 'Old_Name', password: PASSWORD });
    expect([old.status, old.body.code]).toEqual([404, 'auth:user_not_found']);
  });

  it.each(['Abcde', `A${'b'.repeat(63)}`, 'a_1_2', 'Z9999', 'x_______'])('accepts %s', async (name) => {
    const { user, as } = await member();
    expect((await expectRest(op.username({ username: name }), as)).username).toBe(name);
    expect((await rowOf(user)).username).toBe(name);
  });

  it.each([
    [{ username: 'Abcd' }, 'username'],
    [{ username: `A${'b'.repeat(64)}` }, 'username'],
    [{ username: '1abcde' }, 'username'],
    [{ username: '_abcde' }, 'username'],
    [{ username: 'abc-de' }, 'username'],
    [{ username: 'abc de' }, 'username'],
    [{ username: ' abcde' }, 'username'],
    [{ username: 'abcde ' }, 'username'],
    [{ username: 'аbcde' }, 'username'],
    [{ username: 'abc.de' }, 'username'],
    [{ username: '' }, 'username'],
  ])('%j → 400 Invalid field %s in request body, on every door; nothing changes', async (body, field) => {
    const { user, as } = await member({ username: 'Kept_Name' });
    const before = await rowOf(user);
    await expectFailure(op.username(body), as, validation(`Invalid field ${field} in request body`));
    expect(await rowOf(user)).toEqual(before);
  });

  it.each([
    [{}, 'Invalid field username in request body'],
    [{ username: null }, 'Invalid field username in request body'],
    [{ username: 12345 }, 'Invalid field username in request body'],
    [{ username: ['abcdef'] }, 'Invalid field username in request body'],
    [{ username: 'abcdef', password: 'x' }, 'Invalid field password in request body'],
    [undefined, 'Invalid field in request body'],
  ])('REST %j → 400 %s', async (body, message) => {
    const { user, as } = await member({ username: 'Kept_Name' });
    const res = await callRest(op.username(body), as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'system:validation_error', message });
    expect((await rowOf(user)).username).toBe('Kept_Name');
  });

  describe('once an hour', () => {
    it('a second change right after → 429 settings:username_cooldown, on every door; the row stays', async () => {
      const { user, as } = await member({ username: 'First_Name' });
      await expectRest(op.username({ username: 'Second_Name' }), as);
      const before = await rowOf(user);

      await expectFailure(op.username({ username: 'Third_Name' }), as, ERR.usernameCooldown);
      await expectFailure(
        op.username({ username: 'Third_Name' }),
        { ...as, language: 'uk' },
        { ...ERR.usernameCooldown, message: UK['settings:username_cooldown'] },
      );

      expect(await rowOf(user)).toEqual(before);
      expect((await rest(t.app, 'GET', '/user/Third_Name')).status).toBe(404);
    });

    it('59 minutes after the last change is still too soon; 61 minutes after is allowed', async () => {
      const { user, as } = await member({ username: 'First_Name' });
      await expectRest(op.username({ username: 'Second_Name' }), as);

      await rewind(user, 'username_changed', 59 * MINUTE);
      await expectFailure(op.username({ username: 'Third_Name' }), as, ERR.usernameCooldown);
      expect((await rowOf(user)).username).toBe('Second_Name');

      await rewind(user, 'username_changed', 61 * MINUTE);
      expect((await expectRest(op.username({ username: 'Third_Name' }), as)).username).toBe('Third_Name');
      const row = await rowOf(user);
      expect(row.username).toBe('Third_Name');
      expectAbout(row.username_changed!, Date.now());
      await expectFailure(op.username({ username: 'Fourth_Name' }), as, ERR.usernameCooldown);
    });

    it('a stored change time an hour old or older (an imported one) allows the first change', async () => {
      const { user, as } = await member({
        username: 'Imported_Name',
        username_changed: new Date(Date.now() - 2 * HOUR),
      });
      expect((await expectRest(op.username({ username: 'Fresh_Name' }), as)).username).toBe('Fresh_Name');
      expect((await rowOf(user)).username).toBe('Fresh_Name');
    });

    it('the cooldown is checked before the reserved and taken names', async () => {
      const { as } = await member({ username: 'First_Name' });
      await buildUser(t.orm, { username: 'Holder_Name' });
      await expectRest(op.username({ username: 'Second_Name' }), as);
      await expectFailure(op.username({ username: 'admin' }), as, ERR.usernameCooldown);
      await expectFailure(op.username({ username: 'holder_name' }), as, ERR.usernameCooldown);
    });

    it('is per account: another account may change right away', async () => {
      const { as } = await member();
      const { user: other, as: otherAs } = await member();
      await expectRest(op.username({ username: 'First_Change' }), as);
      expect((await expectRest(op.username({ username: 'Other_Change' }), otherAs)).username).toBe(
        'Other_Change',
      );
      expect((await rowOf(other)).username).toBe('Other_Change');
    });
  });

  describe('reserved names', () => {
    it.each(['admin', 'Admin', 'ADMIN', 'administrator', 'GraphQL', 'noreply', 'Moderator'])(
      '%s → 400 settings:invalid_username, on every door; nothing changes (no change time)',
      async (name) => {
        const { user, as } = await member({ username: 'Kept_Name' });
        const before = await rowOf(user);
        await expectFailure(op.username({ username: name }), as, ERR.reserved);
        expect(await rowOf(user)).toEqual(before);
        expect(before.username_changed).toBeNull();
      },
    );

    it('in Ukrainian', async () => {
      const { as } = await member();
      await expectFailure(
        op.username({ username: 'Admin' }),
        { ...as, language: 'uk' },
        { ...ERR.reserved, message: UK['settings:invalid_username'] },
      );
    });

    it('is checked before a taken name (an account stored as `admin`)', async () => {
      await buildUser(t.orm, { username: 'admin' });
      const { as } = await member();
      await expectFailure(op.username({ username: 'ADMIN' }), as, ERR.reserved);
    });
  });

  describe('names in use', () => {
    it.each(['Taken_Name', 'taken_name', 'TAKEN_NAME'])(
      '%s, held by another account → 409 settings:username_taken, on every door; nothing changes',
      async (name) => {
        const { user: holder } = await member({ username: 'Taken_Name' });
        const { user, as } = await member({ username: 'Kept_Name' });
        const before = await rowOf(user);
        await expectFailure(op.username({ username: name }), as, ERR.usernameTaken);
        await expectFailure(
          op.username({ username: name }),
          { ...as, language: 'uk' },
          { ...ERR.usernameTaken, message: UK['settings:username_taken'] },
        );
        expect(await rowOf(user)).toEqual(before);
        expect((await rowOf(holder)).username).toBe('Taken_Name');
      },
    );

    it('a deleted or banned account still holds its name', async () => {
      await buildUser(t.orm, { username: 'Gone_Name', role: 'deleted' });
      await buildUser(t.orm, { username: 'Banned_Name', banned: true });
      const { as } = await member();
      await expectFailure(op.username({ username: 'gone_name' }), as, ERR.usernameTaken);
      await expectFailure(op.username({ username: 'banned_name' }), as, ERR.usernameTaken);
    });

    it.each(['My_Name', 'my_name', 'MY_NAME'])(
      're-saving one’s own name as %s passes and stores that spelling',
      async (name) => {
        const { user, as } = await member({ username: 'My_Name' });
        expect((await expectRest(op.username({ username: name }), as)).username).toBe(name);
        expect((await rowOf(user)).username).toBe(name);
      },
    );
  });

  it('REST ≡ GraphQL: the same User for the same change', async () => {
    const { user, as } = await member({ ...FILLED, username: 'Old_Name' });
    const viaRest = await expectRest(op.username({ username: 'Both_Doors' }), as);
    await rewind(user, 'username_changed', 2 * HOUR);
    const viaGql = await expectGql(op.username({ username: 'Both_Doors' }), as);
    expect(viaGql).toEqual(viaRest);
    expect(viaRest).toEqual(userJson(user, { username: 'Both_Doors' }));
    // GraphQL's change is a change too: it records the time.
    await expectFailure(op.username({ username: 'Too_Soon' }), as, ERR.usernameCooldown);
  });

  describe('scope update:user-details:username', () => {
    it.each([[['update:user-details:username']], [['update:user-details']], [['user-details']]])(
      'serves a third-party token with %j',
      async (scope) => {
        const { user } = await member();
        const body = await expectRest(
          op.username({ username: 'Scoped_Name' }),
          await thirdParty(user, scope),
        );
        expect(body).toEqual(userJson(user, { username: 'Scoped_Name' }));
      },
    );

    it.each([
      [['read:user-details']],
      [['update:user-details:description', 'update:user-details:email', 'update:user-details:password']],
      [[]],
    ])('answers 403 to a third-party token with %j; nothing changes', async (scope) => {
      const { user } = await member({ username: 'Kept_Name' });
      const before = await rowOf(user);
      await expectFailure(op.username({ username: 'Other_Name' }), await thirdParty(user, scope), ERR.denied);
      expect(await rowOf(user)).toEqual(before);
    });

    it('the scope is checked before the rules: 403, not 429, 400 or 409, without it', async () => {
      const { user, as } = await member();
      await buildUser(t.orm, { username: 'Holder_Name' });
      const limited = await thirdParty(user, ['read:user-details']);
      await expectFailure(op.username({ username: 'admin' }), limited, ERR.denied);
      await expectFailure(op.username({ username: 'holder_name' }), limited, ERR.denied);
      await expectRest(op.username({ username: 'Changed_Once' }), as);
      await expectFailure(op.username({ username: 'Changed_Twice' }), limited, ERR.denied);
    });
  });
});

// ===========================================================================

describe('PUT /settings/email', () => {
  it('keeps the address pending: a new 3-hour activation token, the change time; the email stays until then', async () => {
    const { user, as } = await member({ ...FILLED, email: 'old@example.com' });
    const before = await rowOf(user);

    const body = await expectRest(op.email({ email: 'New.Address@Example.com' }), as);

    expect(sortedKeys(body)).toEqual(keysOf(USER));
    expect(shapeProblems(body, USER, 'updateEmail')).toEqual([]);
    expect(body).toEqual(userJson(user));
    expect(JSON.stringify(body)).not.toContain('xample.com');
    const after = await rowOf(user);
    expect(after).toMatchObject({
      email: 'old@example.com',
      pending_email: 'New.Address@Example.com',
      email_confirmed: true,
    });
    expect(after.activation_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expectAbout(after.activation_expires!, Date.now() + 3 * HOUR);
    expectAbout(after.email_changed!, Date.now());
    const PENDING: (keyof Row)[] = [
      'pending_email',
      'activation_token_hash',
      'activation_expires',
      'email_changed',
    ];
    expect(without(after, PENDING)).toEqual(without(before, PENDING));

    const me = await rest(t.app, 'GET', '/user/me', undefined, as);
    expect(me.body.email).toBe('old@example.com');
  });

  it.each(['a@b.co', 'first.last@sub.example.org', 'x_y-z@example.com'])('accepts %s', async (email) => {
    const { user, as } = await member();
    await expectRest(op.email({ email }), as);
    expect((await rowOf(user)).pending_email).toBe(email);
  });

  it.each([
    'not-an-address',
    'a@',
    '@example.com',
    'a b@example.com',
    'first+tag@example.com',
    '',
    `${'a'.repeat(250)}@example.com`,
  ])('%j → 400 Invalid field email in request body, on every door; nothing changes', async (email) => {
    const { user, as } = await member();
    const before = await rowOf(user);
    await expectFailure(op.email({ email }), as, validation('Invalid field email in request body'));
    expect(await rowOf(user)).toEqual(before);
  });

  it.each([
    [{}, 'Invalid field email in request body'],
    [{ email: null }, 'Invalid field email in request body'],
    [{ email: 5 }, 'Invalid field email in request body'],
    [{ email: 'new@example.com', confirm: 'new@example.com' }, 'Invalid field confirm in request body'],
    [undefined, 'Invalid field in request body'],
  ])('REST %j → 400 %s', async (body, message) => {
    const { user, as } = await member();
    const before = await rowOf(user);
    const res = await callRest(op.email(body), as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'system:validation_error', message });
    expect(await rowOf(user)).toEqual(before);
  });

  describe('once a day', () => {
    it('a second change right after → 429 settings:email_cooldown, on every door; the row stays', async () => {
      const { user, as } = await member();
      await expectRest(op.email({ email: 'first@example.com' }), as);
      const before = await rowOf(user);
      await expectFailure(op.email({ email: 'second@example.com' }), as, ERR.emailCooldown);
      await expectFailure(
        op.email({ email: 'second@example.com' }),
        { ...as, language: 'uk' },
        { ...ERR.emailCooldown, message: UK['settings:email_cooldown'] },
      );
      expect(await rowOf(user)).toEqual(before);
    });

    it('23 hours after the last change is too soon; 25 hours after is allowed, with a new token', async () => {
      const { user, as } = await member();
      await expectRest(op.email({ email: 'first@example.com' }), as);
      const first = await rowOf(user);

      await rewind(user, 'email_changed', 23 * HOUR);
      await expectFailure(op.email({ email: 'second@example.com' }), as, ERR.emailCooldown);
      expect((await rowOf(user)).pending_email).toBe('first@example.com');

      await rewind(user, 'email_changed', 25 * HOUR);
      await expectRest(op.email({ email: 'second@example.com' }), as);
      const second = await rowOf(user);
      expect(second.pending_email).toBe('second@example.com');
      expect(second.activation_token_hash).not.toBe(first.activation_token_hash);
      expectAbout(second.email_changed!, Date.now());
    });

    it('the cooldown is checked before an address in use', async () => {
      const { as } = await member();
      await buildUser(t.orm, { email: 'taken@example.com' });
      await expectRest(op.email({ email: 'first@example.com' }), as);
      await expectFailure(op.email({ email: 'taken@example.com' }), as, ERR.emailCooldown);
    });
  });

  describe('an address in use', () => {
    it.each(['taken@example.com', 'TAKEN@example.com', 'Taken@Example.COM'])(
      '%s, another account’s → 409 auth:email_exists, on every door; nothing changes',
      async (email) => {
        await buildUser(t.orm, { email: 'taken@example.com' });
        const { user, as } = await member();
        const before = await rowOf(user);
        await expectFailure(op.email({ email }), as, ERR.emailExists);
        await expectFailure(
          op.email({ email }),
          { ...as, language: 'uk' },
          { ...ERR.emailExists, message: UK['auth:email_exists'] },
        );
        expect(await rowOf(user)).toEqual(before);
      },
    );

    it.each(['mine@example.com', 'MINE@example.com'])(
      'the caller’s own address (%s) → 409 as well; nothing changes',
      async (email) => {
        const { user, as } = await member({ email: 'mine@example.com' });
        const before = await rowOf(user);
        await expectFailure(op.email({ email }), as, ERR.emailExists);
        expect(await rowOf(user)).toEqual(before);
      },
    );

    it('a deleted account’s address is in use too', async () => {
      await buildUser(t.orm, { email: 'gone@example.com', role: 'deleted' });
      const { as } = await member();
      await expectFailure(op.email({ email: 'gone@example.com' }), as, ERR.emailExists);
    });

    it('an address another account only waits for is not in use', async () => {
      const { user: first, as: firstAs } = await member();
      const { user: second, as: secondAs } = await member();
      await expectRest(op.email({ email: 'wanted@example.com' }), firstAs);
      await expectRest(op.email({ email: 'Wanted@example.com' }), secondAs);
      expect((await rowOf(first)).pending_email).toBe('wanted@example.com');
      expect((await rowOf(second)).pending_email).toBe('Wanted@example.com');
    });
  });

  it('REST ≡ GraphQL: the same User for a change', async () => {
    const { user, as } = await member(FILLED);
    const viaRest = await expectRest(op.email({ email: 'rest@example.com' }), as);
    await rewind(user, 'email_changed', 2 * DAY);
    const viaGql = await expectGql(op.email({ email: 'graphql@example.com' }), as);
    expect(viaGql).toEqual(viaRest);
    expect((await rowOf(user)).pending_email).toBe('graphql@example.com');
    await expectFailure(op.email({ email: 'third@example.com' }), as, ERR.emailCooldown);
  });

  describe('scope update:user-details:email', () => {
    it.each([[['update:user-details:email']], [['update:user-details']], [['user-details']]])(
      'serves a third-party token with %j',
      async (scope) => {
        const { user } = await member();
        await expectRest(op.email({ email: 'scoped@example.com' }), await thirdParty(user, scope));
        expect((await rowOf(user)).pending_email).toBe('scoped@example.com');
      },
    );

    it.each([
      [['read:user-details']],
      [['update:user-details:username', 'update:user-details:password', 'update:user-details:description']],
      [[]],
    ])('answers 403 to a third-party token with %j; nothing changes', async (scope) => {
      const { user } = await member();
      const before = await rowOf(user);
      await expectFailure(
        op.email({ email: 'denied@example.com' }),
        await thirdParty(user, scope),
        ERR.denied,
      );
      expect(await rowOf(user)).toEqual(before);
    });

    it('the scope is checked before the rules: 403, not 409, without it', async () => {
      const { user } = await member({ email: 'mine@example.com' });
      await expectFailure(
        op.email({ email: 'mine@example.com' }),
        await thirdParty(user, ['read:user-details']),
        ERR.denied,
      );
    });
  });
});

// ===========================================================================

describe('PUT /settings/password', () => {
  it('the new password logs in, the old one no longer does; the hash is a fresh argon2id one', async () => {
    const { user, as } = await member({
      ...FILLED,
      email: 'pw@example.com',
      password_hash: await hashPassword(PASSWORD),
    });

    const body = await expectRest(op.password({ password: 'a brand new secret' }), as);

    expect(sortedKeys(body)).toEqual(keysOf(USER));
    expect(shapeProblems(body, USER, 'updatePassword')).toEqual([]);
    expect(body).toEqual(userJson(user));
    const stored = await rowOf(user);
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.password_hash).not.toContain('a brand new secret');

    const fresh = await login({ email: 'pw@example.com', password: 'a brand new secret' });
    expect(fresh.status).toBe(200);
    const byName = await login({ username: user.username, password: 'a brand new secret' });
    expect(byName.status).toBe(200);
    const old = await login({ email: 'pw@example.com', password: PASSWORD });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ code: 'auth:invalid_password', message: 'Invalid password' });
  });

  it('existing tokens keep working, first- and third-party', async () => {
    const { user, as } = await member({ password_hash: await hashPassword(PASSWORD) });
    const other = await buildToken(t.orm, user);
    const scoped = await thirdParty(user, ['read:user-details']);

    await expectRest(op.password({ password: 'a brand new secret' }), as);

    for (const options of [as, { token: other }, scoped]) {
      const me = await rest(t.app, 'GET', '/user/me', undefined, options);
      expect(me.status).toBe(200);
      expect(me.body.reference).toBe(user.reference);
    }
  });

  it.each([8, 256])('takes %i characters', async (length) => {
    const password = 'p'.repeat(length);
    const { user, as } = await member();
    await expectRest(op.password({ password }), as);
    expect((await login({ username: user.username, password })).status).toBe(200);
  });

  it.each([
    [{ password: 'p'.repeat(7) }, 'password'],
    [{ password: 'p'.repeat(257) }, 'password'],
    [{ password: '' }, 'password'],
  ])('%j → 400 Invalid field %s in request body, on every door; nothing changes', async (body, field) => {
    const { user, as } = await member({ password_hash: await hashPassword(PASSWORD) });
    const before = await rowOf(user);
    await expectFailure(op.password(body), as, validation(`Invalid field ${field} in request body`));
    expect(await rowOf(user)).toEqual(before);
    expect((await login({ username: user.username, password: PASSWORD })).status).toBe(200);
  });

  it.each([
    [{}, 'Invalid field password in request body'],
    [{ password: null }, 'Invalid field password in request body'],
    [{ password: 12345678 }, 'Invalid field password in request body'],
    [{ password: 'long enough', old_password: PASSWORD }, 'Invalid field old_password in request body'],
    [undefined, 'Invalid field in request body'],
  ])('REST %j → 400 %s', async (body, message) => {
    const { user, as } = await member();
    const before = await rowOf(user);
    const res = await callRest(op.password(body), as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'system:validation_error', message });
    expect(await rowOf(user)).toEqual(before);
  });

  it('REST ≡ GraphQL: the same User, and GraphQL’s change takes effect too', async () => {
    const { user, as } = await member(FILLED);
    const viaRest = await expectRest(op.password({ password: 'rest secret' }), as);
    const viaGql = await expectGql(op.password({ password: 'graphql secret' }), as);
    expect(viaGql).toEqual(viaRest);
    expect((await login({ username: user.username, password: 'graphql secret' })).status).toBe(200);
    expect((await login({ username: user.username, password: 'rest secret' })).status).toBe(401);
  });

  describe('scope update:user-details:password', () => {
    it.each([[['update:user-details:password']], [['update:user-details']], [['user-details']]])(
      'serves a third-party token with %j',
      async (scope) => {
        const { user } = await member();
        await expectRest(op.password({ password: 'scoped secret' }), await thirdParty(user, scope));
        expect((await login({ username: user.username, password: 'scoped secret' })).status).toBe(200);
      },
    );

    it.each([
      [['read:user-details']],
      [['update:user-details:username', 'update:user-details:email', 'update:user-details:description']],
      [[]],
    ])('answers 403 to a third-party token with %j; nothing changes', async (scope) => {
      const { user } = await member();
      const before = await rowOf(user);
      await expectFailure(
        op.password({ password: 'denied secret' }),
        await thirdParty(user, scope),
        ERR.denied,
      );
      expect(await rowOf(user)).toEqual(before);
    });
  });
});

// ===========================================================================

describe('DELETE /settings/image/{image_type}', () => {
  const IMAGES: Partial<User> = { ...FILLED, avatar_path: 'avatars/a.png', cover: '/covers/c.jpg' };

  it('avatar: back to the default avatar URL; the cover stays', async () => {
    const { user, as } = await member(IMAGES);

    const body = await expectRest(op.image('avatar'), as);

    expect(sortedKeys(body)).toEqual(keysOf(USER));
    expect(shapeProblems(body, USER, 'deleteImage')).toEqual([]);
    expect(body).toEqual(
      userJson(user, { avatar: 'https://cdn.test/avatar.jpg', cover: 'https://cdn.test/covers/c.jpg' }),
    );
    expect(await rowOf(user)).toMatchObject({ avatar_path: null, cover: '/covers/c.jpg' });
    expect((await rest(t.app, 'GET', `/user/${user.username}`)).body.avatar).toBe(
      'https://cdn.test/avatar.jpg',
    );
  });

  it('cover: null; the avatar stays', async () => {
    const { user, as } = await member(IMAGES);
    const body = await expectRest(op.image('cover'), as);
    expect(body).toEqual(userJson(user, { avatar: 'https://cdn.test/avatars/a.png', cover: null }));
    expect(body.cover).toBeNull();
    expect(await rowOf(user)).toMatchObject({ avatar_path: 'avatars/a.png', cover: null });
  });

  it('both, one after the other; again when already clear', async () => {
    const { user, as } = await member(IMAGES);
    await expectRest(op.image('avatar'), as);
    await expectRest(op.image('cover'), as);
    for (const type of ['avatar', 'cover']) {
      const body = await expectRest(op.image(type), as);
      expect([body.avatar, body.cover]).toEqual(['https://cdn.test/avatar.jpg', null]);
    }
    expect(await rowOf(user)).toMatchObject({ avatar_path: null, cover: null });
  });

  it('changes only the caller’s images', async () => {
    const { as } = await member(IMAGES);
    const { user: other } = await member(IMAGES);
    await expectRest(op.image('avatar'), as);
    await expectRest(op.image('cover'), as);
    expect(await rowOf(other)).toMatchObject({ avatar_path: 'avatars/a.png', cover: '/covers/c.jpg' });
  });

  it.each(['banner', 'Avatar', 'COVER', 'avatars', 'image', 'background'])(
    '%s → 400 Invalid field image_type in request path, on every door; nothing changes',
    async (type) => {
      const { user, as } = await member(IMAGES);
      const before = await rowOf(user);
      await expectFailure(op.image(type), as, validation('Invalid field image_type in request path'));
      expect(await rowOf(user)).toEqual(before);
    },
  );

  it('the path message in Ukrainian', async () => {
    const { as } = await member();
    const res = await callRest(op.image('banner'), { ...as, language: 'uk' });
    expect(res.body).toEqual({
      code: 'system:validation_error',
      message: 'Некоректне поле image_type у запиті path',
    });
  });

  it('an unknown path under /settings/image is 404 system:not_found', async () => {
    const { as } = await member();
    const res = await rest(t.app, 'DELETE', '/settings/image', undefined, as);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('system:not_found');
  });

  it('REST ≡ GraphQL: the same User, and the same errors', async () => {
    const { as } = await member(IMAGES);
    expect((await expectBoth(op.image('avatar'), as)).avatar).toBe('https://cdn.test/avatar.jpg');
    expect((await expectBoth(op.image('cover'), as)).cover).toBeNull();
  });

  describe('scopes delete:user-details:image AND delete:user-details:cover', () => {
    it.each([
      [['delete:user-details:image', 'delete:user-details:cover']],
      [['update:user-details']],
      [['user-details']],
    ])('serve a third-party token with %j, for both types', async (scope) => {
      const { user } = await member(IMAGES);
      const as = await thirdParty(user, scope);
      await expectRest(op.image('avatar'), as);
      await expectRest(op.image('cover'), as);
      expect(await rowOf(user)).toMatchObject({ avatar_path: null, cover: null });
    });

    it.each([
      ['avatar', ['delete:user-details:image']],
      ['avatar', ['delete:user-details:cover']],
      ['cover', ['delete:user-details:image']],
      ['cover', ['delete:user-details:cover']],
      ['avatar', ['read:user-details', 'update:user-details:description']],
      ['cover', []],
    ])('%s with only %j → 403, on every door; the images stay', async (type, scope) => {
      const { user } = await member(IMAGES);
      await expectFailure(op.image(type), await thirdParty(user, scope), ERR.denied);
      expect(await rowOf(user)).toMatchObject({ avatar_path: 'avatars/a.png', cover: '/covers/c.jpg' });
    });

    it('the path is validated before the scope', async () => {
      const { user } = await member(IMAGES);
      await expectFailure(
        op.image('banner'),
        await thirdParty(user, ['read:user-details']),
        validation('Invalid field image_type in request path'),
      );
    });
  });
});

// ===========================================================================

describe('required authentication, every endpoint', () => {
  it.each(ALL_OPS)(
    '%s: 401 for a missing, unknown or expired token, on every door; nothing changes',
    async (name) => {
      const { user } = await member(FILLED);
      const before = await rowOf(user);
      const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      for (const [options, expected] of [
        [{}, ERR.missing],
        [{ token: 'not-a-token' }, ERR.invalid],
        [{ token: hashSecret('x') }, ERR.invalid],
        [{ token: expired }, ERR.expired],
        [{ cookie: expired }, ERR.expired],
      ] as const) {
        await expectFailure(validOp(name), options, expected);
      }
      expect(await rowOf(user)).toEqual(before);
    },
  );

  it.each(ALL_OPS)(
    '%s: a banned account → 403 auth:banned; a deleted one → 400 user:deleted',
    async (name) => {
      const banned = await member({ ...FILLED, banned: true });
      const gone = await member({ ...FILLED, role: 'deleted' });
      const before = [await rowOf(banned.user), await rowOf(gone.user)];
      await expectFailure(validOp(name), banned.as, ERR.banned);
      await expectFailure(validOp(name), gone.as, ERR.deleted);
      await expectFailure(
        validOp(name),
        { ...gone.as, language: 'uk' },
        { ...ERR.deleted, message: 'Видалено...' },
      );
      expect([await rowOf(banned.user), await rowOf(gone.user)]).toEqual(before);
    },
  );

  it.each(WRITE_OPS)(
    '%s: authentication comes before validation (REST, and GraphQL where the spec checks the value)',
    async (name) => {
      const { as: gone } = await member({ role: 'deleted' });
      const { op: invalid } = INVALID[name];
      const anonymous = await callRest(invalid, {});
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 'auth:missing_token']);
      const deleted = await callRest(invalid, gone);
      expect([deleted.status, deleted.body.code]).toEqual([400, 'user:deleted']);
      // The image type is a GraphQL enum, refused while the variables are coerced (before any resolver).
      if (name !== 'image') {
        expect(graphError((await callGql(invalid, {})).body)).toEqual(ERR.missing);
        expect(graphError((await callGql(invalid, gone)).body)).toEqual(ERR.deleted);
      }
    },
  );

  it.each(WRITE_OPS)(
    '%s: with a valid token the invalid request is 400 validation on every door',
    async (name) => {
      const { as } = await member();
      const { op: invalid, message } = INVALID[name];
      await expectFailure(invalid, as, validation(message));
    },
  );

  it.each(ALL_OPS)('%s: the auth cookie works as the header does', async (name) => {
    const { as } = await member(FILLED);
    const res = await callRest(validOp(name), { cookie: as.token });
    expect(res.status).toBe(200);
  });
});

// ===========================================================================

describe('bounded SQL', () => {
  /** Statements of one successful call of `make()` by a fresh account, with and without crowded rows. */
  async function statements(make: () => Op): Promise<number[]> {
    const counts: number[] = [];
    for (const crowded of [false, true]) {
      const { user, as } = await member(FILLED);
      if (crowded) await crowd(user);
      // The first use of a token slides it: warm it up outside the count.
      expect((await callRest(op.getNotifications(), as)).status).toBe(200);
      counts.push(await t.queries.count(async () => expect((await callRest(make(), as)).status).toBe(200)));
    }
    return counts;
  }

  it.each(ALL_OPS)('%s sends as many statements for a crowded account as for a new one', async (name) => {
    const [lonely, crowded] = await statements(() => validOp(name));
    expect(lonely).toBeGreaterThan(0);
    expect(crowded).toBe(lonely);
  });

  it('GET /settings/notifications reads no more than the token look-up', async () => {
    const [lonely] = await statements(() => op.getNotifications());
    expect(lonely).toBe(1);
  });

  it('PUT /settings/notifications: as many statements for 15 types as for none', async () => {
    const { as } = await member();
    await callRest(op.getNotifications(), as);
    const none = await t.queries.count(() => callRest(op.notifications({ ignored_notifications: [] }), as));
    const all = await t.queries.count(() =>
      callRest(op.notifications({ ignored_notifications: [...NOTIFICATION_TYPES] }), as),
    );
    expect(all).toBe(none);
  });
});

// ===========================================================================

describe('changes at the same time', () => {
  const ROUNDS = 5;

  it('two accounts taking the same free name at once: one gets it, the other 409 settings:username_taken', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const a = await member();
      const b = await member();
      const name = `Race_Name_${round}`;
      const answers = await Promise.all(
        [a, b].map(({ as }) => callRest(op.username({ username: name }), as)),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      const loser = answers.find((res) => res.status === 409)!;
      expect(loser.body).toEqual({ code: ERR.usernameTaken.code, message: ERR.usernameTaken.message });
      const rows = [await rowOf(a.user), await rowOf(b.user)];
      expect(rows.filter((row) => row.username === name)).toHaveLength(1);
      // The loser's row is untouched: no change time.
      expect(rows.filter((row) => row.username_changed === null)).toHaveLength(1);
    }
  });

  it('one account renaming itself twice at once: one change, the other 429', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { user, as } = await member();
      const answers = await Promise.all(
        ['First', 'Second'].map((which) => callRest(op.username({ username: `${which}_Name_${round}` }), as)),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 429]);
      const winner = answers.find((res) => res.status === 200)!;
      expect((await rowOf(user)).username).toBe(winner.body.username);
    }
  });

  it('one account changing its email twice at once: one pending address, the other 429', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { user, as } = await member();
      const answers = await Promise.all(
        ['first', 'second'].map((which) => callRest(op.email({ email: `${which}${round}@example.com` }), as)),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 429]);
      expect((await rowOf(user)).pending_email).toMatch(new RegExp(`^(first|second)${round}@example\\.com$`));
    }
  });

  it('two accounts activating the same pending address at once: one gets it, the other keeps its email (no 500)', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const address = `contested${round}@example.com`;
      const accounts = await Promise.all(
        ['a', 'b'].map(async (which) => {
          const token = `${which}-${round}-activation-token`;
          const user = await buildUser(t.orm, {
            email: `${which}${round}@example.com`,
            pending_email: address,
            activation_token_hash: hashSecret(token),
            activation_expires: new Date(Date.now() + HOUR),
          });
          return { user, token };
        }),
      );
      const answers = await Promise.all(
        accounts.map(({ token }) => rest(t.app, 'POST', '/auth/activation', { token })),
      );
      expect(answers.map((res) => [res.status, res.body.code])).toEqual([
        [200, undefined],
        [200, undefined],
      ]);
      const rows = await Promise.all(accounts.map(({ user }) => rowOf(user)));
      expect(rows.map((row) => row.email).filter((email) => email === address)).toHaveLength(1);
      expect(rows.map((row) => row.pending_email)).toEqual([null, null]);
    }
  });
});

// ===========================================================================

describe('the new email: its activation mail and link', () => {
  const m = useAccountsApp();

  const mPut = (body: unknown, as: CallOptions) => rest(m.app, 'PUT', '/settings/email', body, as);
  const mActivate = (token: string) => rest(m.app, 'POST', '/auth/activation', { token });
  const mLogin = (body: Json) => rest(m.app, 'POST', '/auth/login', body);
  const mRow = async (user: User) => {
    const [row] = await m.orm.em
      .getConnection()
      .execute<Row[]>(`select * from "user" where reference = ?`, [user.reference]);
    return row;
  };
  async function mMember(o: Partial<User> = {}) {
    const user = await buildUser(m.orm, { password_hash: await hashPassword(PASSWORD), ...o });
    return { user, as: { token: await buildToken(m.orm, user) } as CallOptions };
  }
  const mailsTo = (address: string) => m.sent.filter((mail) => mail.to === address);

  it('goes to the pending address; its link makes that address the email (login by it works)', async () => {
    const { user, as } = await mMember({ email: 'old@example.com', username: 'Mail_User' });

    const res = await mPut({ email: 'new@example.com' }, as);
    expect(res.status).toBe(200);
    await m.mailer.idle();

    expect(m.sent).toHaveLength(1);
    const [mail] = m.sent;
    expect(mail.to).toBe('new@example.com');
    expect(mail.subject).toBe('Confirm your email');
    expect(mail.text).toContain('Mail_User');
    const token = tokenInMail(mail.text);
    expect((await mRow(user)).activation_token_hash).toBe(hashSecret(token));
    expect(mailsTo('old@example.com')).toEqual([]);

    const activated = await mActivate(token);
    expect(activated.status).toBe(200);
    expect(sortedKeys(activated.body)).toEqual(['created', 'expiration', 'secret']);
    expect(await mRow(user)).toMatchObject({
      email: 'new@example.com',
      pending_email: null,
      email_confirmed: true,
      activation_token_hash: null,
      activation_expires: null,
      role: 'user',
    });

    const me = await rest(m.app, 'GET', '/user/me', undefined, as);
    expect(me.body.email).toBe('new@example.com');
    expect((await mLogin({ email: 'NEW@example.com', password: PASSWORD })).status).toBe(200);
    const old = await mLogin({ email: 'old@example.com', password: PASSWORD });
    expect([old.status, old.body.code]).toEqual([404, 'auth:user_not_found']);
    // The link works once.
    expect((await mActivate(token)).body.code).toBe('auth:activation_invalid');
  });

  it('keeps the spelling the user gave', async () => {
    const { user, as } = await mMember();
    expect((await mPut({ email: 'Mixed.Case@Example.com' }, as)).status).toBe(200);
    await m.mailer.idle();
    expect(m.sent.map((mail) => mail.to)).toEqual(['Mixed.Case@Example.com']);
    expect((await mActivate(tokenInMail(m.sent[0].text))).status).toBe(200);
    expect((await mRow(user)).email).toBe('Mixed.Case@Example.com');
  });

  it('is written in Ukrainian for a Ukrainian request', async () => {
    const { as } = await mMember();
    expect((await mPut({ email: 'uk@example.com' }, { ...as, language: 'uk' })).status).toBe(200);
    await m.mailer.idle();
    expect(m.sent).toHaveLength(1);
    expect(m.sent[0].to).toBe('uk@example.com');
    expect(m.sent[0].subject).toBe('Підтвердіть вашу пошту');
    expect(() => tokenInMail(m.sent[0].text)).not.toThrow();
  });

  it('GraphQL `updateEmail` sends it too, and its link works', async () => {
    const { user, as } = await mMember({ email: 'old@example.com' });
    const res = await gql(m.app, ROUTES.email.document, { input: { email: 'graph@example.com' } }, as);
    expect(res.body.errors).toBeUndefined();
    await m.mailer.idle();
    expect(m.sent.map((mail) => mail.to)).toEqual(['graph@example.com']);
    expect((await mActivate(tokenInMail(m.sent[0].text))).status).toBe(200);
    expect((await mRow(user)).email).toBe('graph@example.com');
  });

  it('another account took the address meanwhile: the email stays, the pending address is cleared', async () => {
    const { user, as } = await mMember({ email: 'old@example.com' });
    const { as: rivalAs } = await mMember({ email: 'rival@example.com' });
    expect((await mPut({ email: 'contested@example.com' }, as)).status).toBe(200);
    expect((await mPut({ email: 'Contested@example.com' }, rivalAs)).status).toBe(200);
    await m.mailer.idle();
    expect(m.sent.map((mail) => mail.to).sort()).toEqual(['Contested@example.com', 'contested@example.com']);
    const [mine] = mailsTo('contested@example.com');
    const [rivals] = mailsTo('Contested@example.com');

    expect((await mActivate(tokenInMail(rivals.text))).status).toBe(200);
    const activated = await mActivate(tokenInMail(mine.text));
    expect(activated.status).toBe(200);

    expect(await mRow(user)).toMatchObject({
      email: 'old@example.com',
      pending_email: null,
      email_confirmed: true,
      activation_token_hash: null,
    });
    expect((await mLogin({ email: 'old@example.com', password: PASSWORD })).status).toBe(200);
  });

  it('a second change (after a day) replaces the first link', async () => {
    const { user, as } = await mMember({ email: 'old@example.com' });
    expect((await mPut({ email: 'first@example.com' }, as)).status).toBe(200);
    await m.mailer.idle();
    await m.orm.em
      .getConnection()
      .execute(`update "user" set email_changed = ? where reference = ?`, [
        new Date(Date.now() - 2 * DAY),
        user.reference,
      ]);
    expect((await mPut({ email: 'second@example.com' }, as)).status).toBe(200);
    await m.mailer.idle();
    const [first] = mailsTo('first@example.com');
    const [second] = mailsTo('second@example.com');

    expect((await mActivate(tokenInMail(first.text))).body.code).toBe('auth:activation_invalid');
    expect((await mRow(user)).email).toBe('old@example.com');
    expect((await mActivate(tokenInMail(second.text))).status).toBe(200);
    expect((await mRow(user)).email).toBe('second@example.com');
  });

  it('an expired link (after 3 hours) changes nothing', async () => {
    const { user, as } = await mMember({ email: 'old@example.com' });
    expect((await mPut({ email: 'late@example.com' }, as)).status).toBe(200);
    await m.mailer.idle();
    await m.orm.em
      .getConnection()
      .execute(`update "user" set activation_expires = ? where reference = ?`, [
        new Date(Date.now() - 1000),
        user.reference,
      ]);
    const res = await mActivate(tokenInMail(m.sent[0].text));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'auth:activation_expired', message: 'Activation token has expired' });
    expect(await mRow(user)).toMatchObject({ email: 'old@example.com', pending_email: 'late@example.com' });
  });

  it('an account not yet activated: the link confirms the new address and activates the account', async () => {
    const { user, as } = await mMember({
      email: 'first@example.com',
      role: 'not_activated',
      email_confirmed: false,
    });
    expect((await mPut({ email: 'fixed@example.com' }, as)).status).toBe(200);
    await m.mailer.idle();
    expect((await mActivate(tokenInMail(m.sent[0].text))).status).toBe(200);
    expect(await mRow(user)).toMatchObject({
      email: 'fixed@example.com',
      pending_email: null,
      email_confirmed: true,
      role: 'user',
    });
  });

  it('a resent link (#1) of an account not yet activated never makes an address the email that it was not sent to', async () => {
    const { user, as } = await mMember({
      email: 'typo@example.com',
      role: 'not_activated',
      email_confirmed: false,
    });
    expect((await mPut({ email: 'right@example.com' }, as)).status).toBe(200);
    await m.mailer.idle();
    expect(m.sent.map((mail) => mail.to)).toEqual(['right@example.com']);
    // The link expires unused, and the user asks for a new one.
    await m.orm.em
      .getConnection()
      .execute(`update "user" set activation_expires = ? where reference = ?`, [
        new Date(Date.now() - 1000),
        user.reference,
      ]);
    expect((await rest(m.app, 'POST', '/auth/activation/resend', undefined, as)).status).toBe(200);
    await m.mailer.idle();
    expect(m.sent).toHaveLength(2);
    const resent = m.sent[1];

    expect((await mActivate(tokenInMail(resent.text))).status).toBe(200);
    const row = await mRow(user);
    // Whoever opened the resent link controls resent.to: only that address may become the email.
    expect({ email: row.email, sentTo: resent.to }).toEqual({ email: resent.to, sentTo: resent.to });
  });

  it('no mail when the change is refused (409, 429, 403, 400)', async () => {
    await mMember({ email: 'taken@example.com' });
    const { user, as } = await mMember({ email: 'mine@example.com' });
    const limited = { token: await buildThirdPartyToken(m.orm, user, ['read:user-details']) };

    expect((await mPut({ email: 'taken@example.com' }, as)).status).toBe(409);
    expect((await mPut({ email: 'mine@example.com' }, as)).status).toBe(409);
    expect((await mPut({ email: 'scoped@example.com' }, limited)).status).toBe(403);
    expect((await mPut({ email: 'bad+tag@example.com' }, as)).status).toBe(400);
    expect((await mPut({ email: 'ok@example.com' }, as)).status).toBe(200);
    expect((await mPut({ email: 'again@example.com' }, as)).status).toBe(429);
    await m.mailer.idle();
    expect(m.sent.map((mail) => mail.to)).toEqual(['ok@example.com']);
    expect((await mRow(user)).pending_email).toBe('ok@example.com');
  });
});

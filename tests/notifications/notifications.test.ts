import type { User } from '../../src/accounts/user.entity';
import { Notification } from '../../src/notifications/notification.entity';
import { NotificationResolver } from '../../src/notifications/notification.resolver';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildThirdPartyToken, buildToken, buildUser, MISSING_REFERENCE } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, PAGINATION, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asList, asObject, seconds, sortedKeys } from '../setup/json';
import { buildNotification, minutesAgo, notificationsOf } from './helpers';

/** GET /notifications, GET /notifications/count (§3.9) and #22 POST /notifications/{reference}/seen. */
const t = useTestApp();

/** The contract's User (without is_followed) and Notification, with the JSON types of §1.6. */
const USER: Shape = {
  reference: 'string',
  updated: 'integer',
  created: 'integer',
  description: 'string',
  username: 'string',
  cover: 'string',
  avatar: 'string',
  active: 'boolean',
  role: 'string',
};
const NOTIFICATION: Shape = {
  reference: 'string',
  notification_type: 'string',
  created: 'integer',
  seen: 'boolean',
  initiator_user: { object: USER },
  data: { object: { username: 'string', avatar: 'string' } },
};

const routeOf = (path: string, method = 'GET'): RestRoute =>
  restRoutes.find((route) => route.path === path && route.method === method)!;
const SEEN_ROUTE = () => routeOf('/notifications/{notification_reference}/seen', 'POST');

const list = (options: CallOptions, query = '') =>
  rest(t.app, 'GET', `/notifications${query}`, undefined, options);
const count = (options: CallOptions) => rest(t.app, 'GET', '/notifications/count', undefined, options);
const markSeen = (reference: string, options: CallOptions) =>
  rest(t.app, 'POST', `/notifications/${reference}/seen`, undefined, options);

async function caller() {
  const user = await buildUser(t.orm);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

/** A third-party token of `user` holding `scope`. */
const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

/** Notifications of `user` created 40, 30, 20 and 10 minutes ago. */
async function timeline(user: User) {
  const [n40, n30, n20, n10] = await Promise.all(
    [40, 30, 20, 10].map((minutes) => buildNotification(t.orm, user, { created: minutesAgo(minutes) })),
  );
  return { n40, n30, n20, n10 };
}

const stateOf = async (user: User) =>
  Object.fromEntries(
    (await notificationsOf(t.orm, user)).map((n) => [
      n.reference,
      { seen: n.seen, updated: n.updated.getTime() },
    ]),
  );

describe('GET /notifications', () => {
  it('answers the caller’s notifications with every contract field and its type', async () => {
    const { user, as } = await caller();
    const initiator = await buildUser(t.orm, {
      description: 'hi',
      cover: '/c.jpg',
      lists_updated: new Date(),
    });
    const stored = await buildNotification(t.orm, user, {
      notification_type: 'follow',
      initiator,
      data: { username: initiator.username, avatar: 'https://cdn.test/a.jpg' },
      created: new Date('2026-01-02T03:04:05.678Z'),
    });
    const res = await list(as);
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(['list', 'pagination']);
    expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    expect(shapeProblems(res.body.pagination, PAGINATION, 'pagination')).toEqual([]);
    const [item] = asList(res.body.list);
    expect(shapeProblems(item, NOTIFICATION, 'notification')).toEqual([]);
    expect(item).toEqual({
      reference: stored.reference,
      notification_type: 'follow',
      created: seconds('2026-01-02T03:04:05Z'),
      seen: false,
      initiator_user: {
        reference: initiator.reference,
        created: seconds(initiator.created),
        updated: seconds(initiator.lists_updated!),
        description: 'hi',
        username: initiator.username,
        avatar: 'https://cdn.test/avatar.jpg',
        cover: 'https://cdn.test/c.jpg',
        active: true,
        role: 'user',
      },
      data: { username: initiator.username, avatar: 'https://cdn.test/a.jpg' },
    });
  });

  it('shows a null initiator for system events', async () => {
    const { user, as } = await caller();
    await buildNotification(t.orm, user, { notification_type: 'schedule_anime', data: { slug: 'x' } });
    const [item] = asList((await list(as)).body.list);
    expect(item.initiator_user).toBeNull();
    expect(item.data).toEqual({ slug: 'x' });
  });

  it('orders by created desc then reference desc, pages, and shows only the caller’s', async () => {
    const { user, as } = await caller();
    const stranger = await buildUser(t.orm);
    const same = new Date('2026-01-01T00:00:00Z');
    const older = await buildNotification(t.orm, user, { created: new Date('2025-12-31T00:00:00Z') });
    const tied = [
      await buildNotification(t.orm, user, { created: same }),
      await buildNotification(t.orm, user, { created: same }),
    ];
    const newest = await buildNotification(t.orm, user, { created: new Date('2026-01-02T00:00:00Z') });
    await buildNotification(t.orm, stranger, { created: new Date('2026-01-03T00:00:00Z') });
    const expected = [
      newest.reference,
      ...tied
        .map((n) => n.reference)
        .sort()
        .reverse(),
      older.reference,
    ];

    const all = await list(as);
    expect(asList(all.body.list).map((n) => n.reference)).toEqual(expected);
    const second = await list(as, '?page=2&size=3');
    expect(second.body.pagination).toEqual({ total: 4, pages: 2, page: 2 });
    expect(asList(second.body.list).map((n) => n.reference)).toEqual(expected.slice(3));
    const past = await list(as, '?page=3&size=3');
    expect(past.body).toEqual({ pagination: { total: 4, pages: 2, page: 3 }, list: [] });
  });

  it('answers an empty page to a user without notifications', async () => {
    const { as } = await caller();
    expect((await list(as)).body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
  });

  it.each([
    ['?page=0', 'page'],
    ['?size=101', 'size'],
    ['?page=01', 'page'],
  ])('%s → 400 Invalid field %s in request query', async (query, name) => {
    const { as } = await caller();
    const res = await list(as, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: `Invalid field ${name} in request query`,
      code: 'system:validation_error',
    });
  });

  it('requires authentication, before validation', async () => {
    const res = await list({}, '?page=0');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth:missing_token');
    expect((await list({ token: 'nope' })).body.code).toBe('auth:invalid_token');
  });

  it('needs scope read:notification from a third-party token', async () => {
    const { user } = await caller();
    await buildNotification(t.orm, user);
    const without = await list(await thirdParty(user, ['read:watchlist', 'seen:notification']));
    expect(without.status).toBe(403);
    expect(without.body).toEqual({
      message: "You don't have permission for this action",
      code: 'permission:denied',
    });
    expect((await list(await thirdParty(user, ['read:notification']))).body.pagination.total).toBe(1);
    expect((await list(await thirdParty(user, ['notification']))).status).toBe(200);
  });
});

describe('Notification.initiator_user', () => {
  it('completes an initiator that was not populated, batching the users of a request', async () => {
    const { user } = await caller();
    const [a, b] = [await buildUser(t.orm), await buildUser(t.orm)];
    await buildNotification(t.orm, user, { initiator: a, created: minutesAgo(3) });
    await buildNotification(t.orm, user, { initiator: b, created: minutesAgo(2) });
    await buildNotification(t.orm, user, { created: minutesAgo(1) });
    const em = t.orm.em.fork();
    const rows = await em.find(Notification, { user: user.reference }, { orderBy: { created: 'asc' } });
    const resolver = new NotificationResolver();
    let initiators: (string | undefined)[] = [];
    const queries = await t.queries.count(async () => {
      const users = await Promise.all(rows.map((row) => resolver.initiator_user(row)));
      initiators = users.map((u) => u?.username);
    });
    expect(initiators).toEqual([a.username, b.username, undefined]);
    expect(queries).toBe(1);
  });
});

describe('GET /notifications/count', () => {
  it('counts the caller’s unseen notifications only', async () => {
    const { user, as } = await caller();
    const stranger = await buildUser(t.orm);
    await buildNotification(t.orm, user);
    await buildNotification(t.orm, user);
    await buildNotification(t.orm, user, { seen: true });
    await buildNotification(t.orm, stranger);
    const res = await count(as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unseen: 2 });
  });

  it('requires authentication and scope read:notification', async () => {
    const { user } = await caller();
    expect((await count({})).status).toBe(401);
    const res = await count(await thirdParty(user, ['seen:notification']));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
    expect((await count(await thirdParty(user, ['read:notification']))).body).toEqual({ unseen: 0 });
  });
});

describe('#22 POST /notifications/{notification_reference}/seen', () => {
  describe('effects', () => {
    it('marks the target and every older unseen notification of the caller, and nothing newer', async () => {
      const { user, as } = await caller();
      const { n40, n30, n20, n10 } = await timeline(user);
      const before = Date.now();
      const res = await markSeen(n30.reference, as);
      const after = Date.now();
      expect(res.status).toBe(200);
      const rows = Object.fromEntries((await notificationsOf(t.orm, user)).map((n) => [n.reference, n]));
      expect([n40, n30, n20, n10].map((n) => rows[n.reference].seen)).toEqual([true, true, false, false]);
      for (const marked of [n40, n30]) {
        expect(rows[marked.reference].updated.getTime()).toBeGreaterThanOrEqual(before - 1);
        expect(rows[marked.reference].updated.getTime()).toBeLessThanOrEqual(after + 1);
      }
      expect(rows[n20.reference].updated).toEqual(n20.updated);
      expect((await count(as)).body).toEqual({ unseen: 2 });
    });

    it('answers the target Notification with seen true and every contract field', async () => {
      const { user, as } = await caller();
      const initiator = await buildUser(t.orm, {
        description: 'd',
        cover: '/c.jpg',
        lists_updated: new Date(),
      });
      const target = await buildNotification(t.orm, user, {
        notification_type: 'follow',
        initiator,
        data: { username: initiator.username, avatar: 'https://cdn.test/a.jpg' },
      });
      const res = await markSeen(target.reference, as);
      expect(shapeProblems(res.body, NOTIFICATION, 'notification')).toEqual([]);
      expect(sortedKeys(res.body)).toEqual(keysOf(NOTIFICATION));
      expect(res.body).toMatchObject({
        reference: target.reference,
        notification_type: 'follow',
        created: seconds(target.created),
        seen: true,
        initiator_user: { reference: initiator.reference, username: initiator.username },
      });
      expect(asObject(res.body.initiator_user)).not.toHaveProperty('is_followed');
    });

    it('leaves other users’ notifications untouched, older ones included', async () => {
      const { user, as } = await caller();
      const stranger = await buildUser(t.orm);
      await timeline(stranger);
      const strangerBefore = await stateOf(stranger);
      const target = await buildNotification(t.orm, user, { created: minutesAgo(1) });
      await markSeen(target.reference, as);
      expect(await stateOf(stranger)).toEqual(strangerBefore);
      expect(Object.values(strangerBefore).every((n) => !n.seen)).toBe(true);
    });

    it('changes nothing when repeated, and answers the same', async () => {
      const { user, as } = await caller();
      const { n30 } = await timeline(user);
      const first = await markSeen(n30.reference, as);
      const state = await stateOf(user);
      const second = await markSeen(n30.reference, as);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await stateOf(user)).toEqual(state);
    });

    it('sends one statement after the token, inside the transaction, first time and repeated', async () => {
      const { user, as } = await caller();
      const { n30 } = await timeline(user);
      for (const round of ['first', 'repeated']) {
        const kinds = await t.queries.kinds(
          async () => expect((await markSeen(n30.reference, as)).status).toBe(200),
          (statement) => (statement.startsWith('with target as') ? 'mark' : undefined),
        );
        const marking = ['begin+mark', 'commit'];
        expect({ round, kinds }).toEqual({
          round,
          kinds: round === 'first' ? ['token', 'token use', ...marking] : ['token', ...marking],
        });
      }
    });

    it('does not touch notifications seen before, nor their `updated`', async () => {
      const { user, as } = await caller();
      const seenBefore = await buildNotification(t.orm, user, {
        created: minutesAgo(50),
        seen: true,
        updated: minutesAgo(45),
      });
      const target = await buildNotification(t.orm, user, { created: minutesAgo(10) });
      await markSeen(target.reference, as);
      const [row] = (await notificationsOf(t.orm, user)).filter((n) => n.reference === seenBefore.reference);
      expect(row.updated).toEqual(seenBefore.updated);
    });

    it('on a target already seen, still marks older unseen ones', async () => {
      const { user, as } = await caller();
      const target = await buildNotification(t.orm, user, { created: minutesAgo(10), seen: true });
      const older = await buildNotification(t.orm, user, { created: minutesAgo(20) });
      await markSeen(target.reference, as);
      const rows = await notificationsOf(t.orm, user);
      expect(rows.find((n) => n.reference === older.reference)?.seen).toBe(true);
    });

    it('includes notifications created at the same time as the target', async () => {
      const { user, as } = await caller();
      const at = minutesAgo(5);
      const target = await buildNotification(t.orm, user, { created: at });
      await buildNotification(t.orm, user, { created: at });
      await markSeen(target.reference, as);
      expect((await notificationsOf(t.orm, user)).map((n) => n.seen)).toEqual([true, true]);
    });

    it('compares creation times at full precision (microseconds)', async () => {
      const { user, as } = await caller();
      const target = await buildNotification(t.orm, user);
      const later = await buildNotification(t.orm, user);
      await t.orm.em.getConnection().execute(
        `update notification set created = case reference when ? then '2026-01-01 00:00:00.000700+00'::timestamptz
                                                         else '2026-01-01 00:00:00.000900+00'::timestamptz end
            where user_reference = ?`,
        [target.reference, user.reference],
      );
      await markSeen(target.reference, as);
      const rows = await notificationsOf(t.orm, user);
      expect(rows.find((n) => n.reference === target.reference)?.seen).toBe(true);
      expect(rows.find((n) => n.reference === later.reference)?.seen).toBe(false);
    });

    it('accepts the reference in upper case and answers it in lower case', async () => {
      const { user, as } = await caller();
      const target = await buildNotification(t.orm, user);
      const res = await markSeen(target.reference.toUpperCase(), as);
      expect(res.status).toBe(200);
      expect(res.body.reference).toBe(target.reference);
    });
  });

  describe('errors, in check order', () => {
    it('401 without a token, before validation', async () => {
      const missing = await markSeen('not-a-uuid', {});
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ message: 'Auth token is missing', code: 'auth:missing_token' });
      const invalid = await markSeen('not-a-uuid', { token: 'wrong' });
      expect(invalid.body.code).toBe('auth:invalid_token');
    });

    it('401 auth:token_expired for an expired token', async () => {
      const { user } = await caller();
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      const target = await buildNotification(t.orm, user);
      const res = await markSeen(target.reference, { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('auth:token_expired');
    });

    it.each([
      'not-a-uuid',
      '123',
      '0000000-0000-0000-0000-000000000000',
      'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    ])('400 for the path value %s', async (value) => {
      const { as } = await caller();
      const res = await markSeen(value, as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Invalid field notification_reference in request path',
        code: 'system:validation_error',
      });
    });

    it('404 notification:not_found for an unknown reference', async () => {
      const { as } = await caller();
      const res = await markSeen(MISSING_REFERENCE, as);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Notification not found', code: 'notification:not_found' });
    });

    it('404 in Ukrainian when asked', async () => {
      const { as } = await caller();
      const res = await markSeen(MISSING_REFERENCE, { ...as, language: 'uk' });
      expect(res.body).toEqual({ message: 'Сповіщення не знайдено', code: 'notification:not_found' });
    });

    it('403 notification:not_owner for a stranger (not 404), changing nothing', async () => {
      const owner = await buildUser(t.orm);
      const { user: stranger, as } = await caller();
      await timeline(owner);
      const strangersOwn = await buildNotification(t.orm, stranger, { created: minutesAgo(60) });
      const target = await buildNotification(t.orm, owner, { created: minutesAgo(5) });
      const ownerBefore = await stateOf(owner);
      const res = await markSeen(target.reference, as);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message: 'User not owner of the notification',
        code: 'notification:not_owner',
      });
      expect(await stateOf(owner)).toEqual(ownerBefore);
      expect((await notificationsOf(t.orm, stranger))[0]).toMatchObject({
        reference: strangersOwn.reference,
        seen: false,
      });
    });

    it('403 permission:denied for a third-party token without seen:notification, changing nothing', async () => {
      const { user } = await caller();
      const { n30 } = await timeline(user);
      const before = await stateOf(user);
      for (const scope of [['read:watchlist'], ['read:notification'], ['watchlist', 'follow-full']]) {
        const res = await markSeen(n30.reference, await thirdParty(user, scope));
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('permission:denied');
      }
      expect(await stateOf(user)).toEqual(before);
    });

    it('a third-party token with seen:notification (or its group) may mark', async () => {
      const { user } = await caller();
      const first = await buildNotification(t.orm, user, { created: minutesAgo(10) });
      const second = await buildNotification(t.orm, user, { created: minutesAgo(5) });
      expect((await markSeen(first.reference, await thirdParty(user, ['seen:notification']))).status).toBe(
        200,
      );
      expect((await markSeen(second.reference, await thirdParty(user, ['notification']))).body.seen).toBe(
        true,
      );
    });

    it('checks existence before the scope (404), and the scope before ownership (403 permission:denied)', async () => {
      const { user } = await caller();
      const stranger = await buildUser(t.orm);
      const theirs = await buildNotification(t.orm, stranger);
      const limited = await thirdParty(user, ['read:watchlist']);
      const unknown = await markSeen(MISSING_REFERENCE, limited);
      expect(unknown.body.code).toBe('notification:not_found');
      const foreign = await markSeen(theirs.reference, limited);
      expect(foreign.body.code).toBe('permission:denied');
    });

    it('answers 405 with Allow: POST to other methods', async () => {
      const { user, as } = await caller();
      const target = await buildNotification(t.orm, user);
      const res = await rest(t.app, 'GET', `/notifications/${target.reference}/seen`, undefined, as);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    });
  });

  describe('REST ≡ GraphQL (same document and variables)', () => {
    it('answers data.markNotificationSeen of the route’s document', async () => {
      const { user, as } = await caller();
      const initiator = await buildUser(t.orm);
      const { n30 } = await timeline(user);
      await buildNotification(t.orm, user, {
        initiator,
        notification_type: 'follow',
        created: minutesAgo(35),
      });
      const viaRest = await markSeen(n30.reference, as);
      const state = await stateOf(user);
      const viaGql = await gql(t.app, SEEN_ROUTE().document, { notification_reference: n30.reference }, as);
      expect(viaGql.status).toBe(200);
      expect(viaGql.body.errors).toBeUndefined();
      expect(viaRest.body).toEqual(viaGql.body.data.markNotificationSeen);
      expect(await stateOf(user)).toEqual(state);
    });

    it('the GraphQL call has the same effects', async () => {
      const { user, as } = await caller();
      const { n40, n30, n20 } = await timeline(user);
      await gql(t.app, SEEN_ROUTE().document, { notification_reference: n30.reference }, as);
      const rows = Object.fromEntries((await notificationsOf(t.orm, user)).map((n) => [n.reference, n.seen]));
      expect([rows[n40.reference], rows[n30.reference], rows[n20.reference]]).toEqual([true, true, false]);
    });

    it.each<
      [
        string,
        (ctx: {
          own: Notification;
          theirs: Notification;
          user: User;
        }) => Promise<[string, CallOptions | null]>,
        number,
        string,
      ]
    >([
      ['unknown', async () => [MISSING_REFERENCE, null], 404, 'notification:not_found'],
      ['foreign', async ({ theirs }) => [theirs.reference, null], 403, 'notification:not_owner'],
      [
        'no scope',
        async ({ own, user }) => [own.reference, await thirdParty(user, ['read:watchlist'])],
        403,
        'permission:denied',
      ],
    ])('%s fails alike', async (_name, arrange, status, code) => {
      const { user, as } = await caller();
      const own = await buildNotification(t.orm, user);
      const theirs = await buildNotification(t.orm, await buildUser(t.orm));
      const [reference, options] = await arrange({ own, theirs, user });
      const viaRest = await markSeen(reference, options ?? as);
      const viaGql = await gql(
        t.app,
        SEEN_ROUTE().document,
        { notification_reference: reference },
        options ?? as,
      );
      expect(viaRest.status).toBe(status);
      expect(viaRest.body.code).toBe(code);
      expect(viaGql.status).toBe(200);
      const [error] = viaGql.body.errors;
      expect({
        message: error.message,
        code: error.extensions.code,
        status: error.extensions.http.status,
      }).toEqual({
        ...viaRest.body,
        status,
      });
    });

    it('a malformed reference fails alike (HTTP 400 both ways), after authentication', async () => {
      const { as } = await caller();
      const viaRest = await markSeen('nope', as);
      const viaGql = await gql(t.app, SEEN_ROUTE().document, { notification_reference: 'nope' }, as);
      expect(viaGql.status).toBe(400);
      expect(viaGql.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        extensions: { code: 'system:validation_error', http: { status: 400 } },
      });
      const anonymous = await gql(t.app, SEEN_ROUTE().document, { notification_reference: 'nope' });
      expect(anonymous.body.errors[0].extensions.code).toBe('auth:missing_token');
    });

    it('GET /notifications and /count answer their documents’ data', async () => {
      const { user, as } = await caller();
      await timeline(user);
      const listed = await list(as, '?page=1&size=2');
      const listedGql = await gql(t.app, routeOf('/notifications').document, { page: 1, size: 2 }, as);
      expect(listed.body).toEqual(listedGql.body.data.notifications);
      const counted = await gql(t.app, routeOf('/notifications/count').document, {}, as);
      expect((await count(as)).body).toEqual(counted.body.data.notificationCount);
    });
  });
});

import { requestContext } from '../setup/request-context';
import { OperationTypeNode } from 'graphql';
import { User } from '../../src/accounts/user.entity';
import { AuthSession } from '../../src/accounts/session';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { animeSlugs, buildCollection, collectionBody } from '../collections/helpers';
import { buildToken, buildUser } from '../factories';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

// Bursts of concurrent requests: slow on a loaded machine, bounded all the same.
jest.setTimeout(120_000);

const t = useTestApp();

/** Users whose session needs its expiry slid and `last_active` moved on their next request. */
async function makeStale(): Promise<void> {
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  await t.orm.em.fork().nativeUpdate(User, {}, { last_active: hourAgo });
  await t.orm.em.fork().nativeUpdate(AuthToken, {}, { expiration: new Date(Date.now() + 60 * 60 * 1000) });
}

describe('a burst of reads by users whose sessions are stale', () => {
  it('answers every request: refreshing the session never disturbs the read', async () => {
    const slugs = await animeSlugs(t.orm, 3);
    const callers: { token: string; collection: string }[] = [];
    for (let i = 0; i < 18; i += 1) {
      const user = await buildUser(t.orm);
      const collection = await buildCollection(t.orm, user, collectionBody(slugs, { visibility: 'private' }));
      callers.push({ token: await buildToken(t.orm, user), collection: collection.reference });
    }
    const statuses: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      await makeStale();
      const responses = await Promise.all(
        callers.map(({ token, collection }) =>
          rest(t.app, 'GET', `/collections/${collection}`, undefined, { token }),
        ),
      );
      statuses.push(...responses.map((response) => response.status));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const [{ stale }] = await t.orm.em
      .getConnection()
      .execute<{ stale: string }[]>(
        `select count(*) as stale from "user" where last_active < now() - interval '5 minutes'`,
      );
    expect(Number(stale)).toBe(0);
  });

  it("answers with the refreshed session: the caller's token info shows the slid expiry", async () => {
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    await makeStale();
    const response = await rest(t.app, 'GET', '/auth/token/info', undefined, { token });
    expect(response.status).toBe(200);
    const thirtyDays = 30 * 24 * 60 * 60;
    expect(Math.abs(response.body.expiration - (Date.now() / 1000 + thirtyDays))).toBeLessThan(60);
    expect(Math.abs(response.body.used - Date.now() / 1000)).toBeLessThan(60);
  });

  it('leaves nothing changed in the unit of work of the request that refreshed it', async () => {
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    await makeStale();
    // A bare fork: no FlushMode.COMMIT here, so this pins the refresh itself.
    const em = t.orm.em.fork();
    await new AuthSession(() => em, token).required();
    em.getUnitOfWork().computeChangeSets();
    expect(em.getUnitOfWork().getChangeSets()).toEqual([]);
  });

  it("never flushes what a query's entities hold changed: a read does not write", async () => {
    const user = await buildUser(t.orm, { description: 'as stored' });
    const ctx = requestContext(t.orm.em, 'read');
    ctx.chooseReads(OperationTypeNode.QUERY);
    const loaded = await ctx.em.findOneOrFail(User, { reference: user.reference });
    loaded.description = 'changed in memory';
    await ctx.em.find(User, { reference: user.reference });
    const stored = await t.orm.em.fork().findOneOrFail(User, { reference: user.reference });
    expect(stored.description).toBe('as stored');
  });
});

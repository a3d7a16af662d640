import { wrap } from '@mikro-orm/core';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { AuthSession } from '../../src/accounts/session';
import { entityColumns, mapEntityRow } from '../../src/db/entity-rows';
import { buildAnime, buildClient, buildToken, buildUser } from '../factories';
import { useTestApp } from '../setup/harness';

/**
 * The token look-up outside a transaction reads its rows with a statement of its own
 * (src/db/entity-rows.ts): the entities it makes must be those a find makes.
 */
describe('entities read by a statement of their own (the token look-up)', () => {
  const t = useTestApp();

  const snapshot = (entity: object) => JSON.parse(JSON.stringify(wrap(entity).toPOJO())) as unknown;

  it('equal what the entity manager finds: the token, its user and its client, every stored value', async () => {
    const user = await buildUser(t.orm, { description: 'about me', forbidden_actions: ['comment:create'] });
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const secret = await buildToken(t.orm, user, { client, scope: ['read:watchlist', 'read:readlist'] });

    const statementEm = t.orm.em.fork();
    const viewer = await new AuthSession(() => statementEm, secret, { recordUse: false }).required();
    const found = await t.orm.em
      .fork()
      .findOneOrFail(AuthToken, { reference: viewer.token.reference }, { populate: ['user', 'client'] });

    expect(wrap(viewer.token).isManaged()).toBe(true);
    expect(viewer.token.user).toBe(viewer.user);
    expect(viewer.token.expiration).toBeInstanceOf(Date);
    expect(snapshot(viewer.token)).toEqual(snapshot(found));
    expect(snapshot(viewer.user)).toEqual(snapshot(found.user));
    expect(viewer.token.client).not.toBeNull();
    expect(snapshot(viewer.token.client!)).toEqual(snapshot(found.client!));
  });

  it('leave a first-party token without a client, and find no token for an unknown secret', async () => {
    const user = await buildUser(t.orm);
    const secret = await buildToken(t.orm, user);
    const viewer = await new AuthSession(() => t.orm.em.fork(), secret, { recordUse: false }).required();
    expect(viewer.token.client).toBeNull();
    expect(viewer.user.reference).toBe(user.reference);
    await expect(
      new AuthSession(() => t.orm.em.fork(), 'nope', { recordUse: false }).required(),
    ).rejects.toMatchObject({
      code: 'auth:invalid_token',
    });
  });

  it('read an eager formula as a find does: a title and its native score', async () => {
    const anime = await buildAnime(t.orm, { native_scored_by: 12, native_score_total: 96 });
    const em = t.orm.em.fork();
    const [row] = await em.execute<Record<string, unknown>[]>(
      `select ${entityColumns(em, Anime, 'x')} from anime x where x.reference = ?`,
      [anime.reference],
    );
    const mapped = mapEntityRow(em, Anime, row, 'x')!;
    const found = await t.orm.em.fork().findOneOrFail(Anime, { reference: anime.reference });
    expect(found.native_score).toBeGreaterThan(0);
    expect(snapshot(mapped)).toEqual(snapshot(found));
  });
});

import { ActionRecord } from '../../src/accounts/action-record.entity';
import { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { WatchEntry } from '../../src/lists/watch-entry.entity';
import { MUTATION_ATTEMPTS } from '../../src/graphql/database-plugin';
import { signupBody, useAccountsApp } from '../accounts/helpers';
import { buildAnime, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { withConflictingActionRecords } from '../setup/db';

// Bursts of concurrent requests: slow on a loaded machine, bounded all the same.
jest.setTimeout(120_000);

const t = useAccountsApp();

const saveWatch = `mutation($slug: String!, $input: WatchEntryInput!) {
  saveWatchEntry(slug: $slug, input: $input) { status score }
}`;

/**
 * A transaction that PostgreSQL aborts to resolve a deadlock (40P01) or a serialization
 * failure (40001) is run again from the start, a bounded number of times, then answered
 * 503 `system:unavailable` with `Retry-After`: never 500, never half-written. The
 * conflict is injected into the last insert of the write (its action record).
 */
describe('mutations whose transaction PostgreSQL aborts for a conflict', () => {
  async function setup() {
    const user = await buildUser(t.orm);
    const anime = await buildAnime(t.orm);
    return { user, anime, token: await buildToken(t.orm, user) };
  }

  const doors = {
    REST: (slug: string, token: string) =>
      rest(t.app, 'PUT', `/watch/${slug}`, { status: 'completed', score: 8 }, { token }),
    GraphQL: (slug: string, token: string) =>
      gql(t.app, saveWatch, { slug, input: { status: 'completed', score: 8 } }, { token }),
  };

  async function stored(user: User, anime: Anime) {
    const em = t.orm.em.fork();
    return {
      entries: await em.count(WatchEntry, { user: user.reference }),
      actions: await em.count(ActionRecord, { user: user.reference }),
      native: await em
        .findOneOrFail(Anime, { reference: anime.reference })
        .then(({ native_scored_by, native_score_total }) => ({ native_scored_by, native_score_total })),
    };
  }

  for (const [door, save] of Object.entries(doors)) {
    for (const sqlstate of ['40P01', '40001'] as const) {
      it(`${door}: runs again after ${sqlstate} and writes once`, async () => {
        const { user, anime, token } = await setup();
        const res = await withConflictingActionRecords(
          t.orm,
          { sqlstate, times: MUTATION_ATTEMPTS - 1 },
          () => save(anime.slug, token),
        );
        expect(res.status).toBe(200);
        expect(door === 'REST' ? res.body : res.body.data.saveWatchEntry).toMatchObject({
          status: 'completed',
          score: 8,
        });
        expect(await stored(user, anime)).toEqual({
          entries: 1,
          actions: 1,
          native: { native_scored_by: 1, native_score_total: 8 },
        });
      });
    }

    it(`${door}: answers 503 system:unavailable with Retry-After once the attempts are spent, writing nothing`, async () => {
      const { user, anime, token } = await setup();
      t.logs.length = 0;
      const res = await withConflictingActionRecords(
        t.orm,
        { sqlstate: '40P01', times: MUTATION_ATTEMPTS },
        () => save(anime.slug, token),
      );
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      const error = door === 'REST' ? res.body : res.body.errors[0].extensions;
      expect(error.code).toBe('system:unavailable');
      if (door === 'GraphQL') expect(res.body.data).toBeNull();
      expect(await stored(user, anime)).toEqual({
        entries: 0,
        actions: 0,
        native: { native_scored_by: 0, native_score_total: 0 },
      });
      const conflicts = t.logs.filter((line) => line.msg === 'transaction conflict');
      expect(conflicts).toHaveLength(1);
      expect(t.logs.filter((line) => line.msg === 'unexpected error')).toEqual([]);
    });
  }

  it('sends the email of a signup run again once, after the attempt that committed', async () => {
    const body = signupBody();
    t.sent.length = 0;
    const res = await withConflictingActionRecords(t.orm, { sqlstate: '40P01', times: 2 }, () =>
      rest(t.app, 'POST', '/auth/signup', body),
    );
    expect(res.status).toBe(200);
    expect(t.sent.map((mail) => mail.to)).toEqual([body.email]);
    expect(await t.orm.em.fork().count(User, { username: body.username })).toBe(1);
  });
});

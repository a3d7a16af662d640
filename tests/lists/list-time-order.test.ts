import { ReadEntry } from '../../src/lists/read-entry.entity';
import { WatchEntry } from '../../src/lists/watch-entry.entity';
import { buildAnime, buildManga, buildToken, buildUser } from '../factories';
import { rest, type CallOptions } from '../setup/clients';
import { fixDate } from '../setup/fixed-date';
import { useTestApp } from '../setup/harness';
import { listEntryProbes } from './list-entry-probes';

/**
 * §6.4 User `updated` is the time of the user's last list change. A write reads the
 * clock before it waits for the user's row lock, so when two writes of one user run
 * at once, the one with the older time can commit last. Running the writes one after
 * another with the clock turned back reproduces that order deterministically.
 */
const t = useTestApp();
const { storedUser } = listEntryProbes(t);

async function setup() {
  const user = await buildUser(t.orm);
  const as: CallOptions = { token: await buildToken(t.orm, user) };
  await buildAnime(t.orm, { slug: 'frieren', episodes_total: 12 });
  await buildAnime(t.orm, { slug: 'mushishi', episodes_total: 26 });
  await buildManga(t.orm, { slug: 'berserk' });
  return { user, as };
}

/** The newest `updated` among the user's watch and read entries. */
async function newestEntryTime(userReference: string): Promise<number> {
  const em = t.orm.em.fork();
  const entries = [
    ...(await em.find(WatchEntry, { user: userReference })),
    ...(await em.find(ReadEntry, { user: userReference })),
  ];
  return Math.max(...entries.map((entry) => entry.updated.getTime()));
}

describe('the user’s list change time under writes that commit out of order', () => {
  const now = Date.now();
  const at = (offsetSeconds: number) => jest.setSystemTime(now + offsetSeconds * 1000);

  beforeEach(() => {
    fixDate(now);
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('never falls behind the newest entry, for watch and read entries and deletions', async () => {
    const { user, as } = await setup();
    at(60);
    expect((await rest(t.app, 'PUT', '/watch/frieren', { status: 'watching' }, as)).status).toBe(200);
    at(0);
    expect((await rest(t.app, 'PUT', '/watch/mushishi', { status: 'planned' }, as)).status).toBe(200);
    expect((await rest(t.app, 'PUT', '/read/manga/berserk', { status: 'reading' }, as)).status).toBe(200);
    at(30);
    expect((await rest(t.app, 'DELETE', '/watch/mushishi', undefined, as)).status).toBe(200);

    const newest = await newestEntryTime(user.reference);
    expect(newest).toBe(now + 60_000);
    expect((await storedUser(user)).lists_updated?.getTime()).toBe(newest);
  });

  it('still moves forward with each later write', async () => {
    const { user, as } = await setup();
    at(0);
    await rest(t.app, 'PUT', '/watch/frieren', { status: 'watching' }, as);
    at(90);
    await rest(t.app, 'PUT', '/read/manga/berserk', { status: 'reading' }, as);
    expect((await storedUser(user)).lists_updated?.getTime()).toBe(now + 90_000);
  });
});

import type { ServerResponse } from 'node:http';
import type { Response } from 'supertest';
import { Admission } from '../../src/http/admission';
import { loadConfig } from '../../src/config';
import { buildAnime, buildManga, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { startHttpApp } from './http-app';

/** A response the admission reads: still to be answered, or answered meanwhile. */
const pending = (): ServerResponse => ({ writableEnded: false, destroyed: false }) as ServerResponse;

/** An operation that runs until the test lets it finish, recording when it started. */
function operation(name: string, started: string[]) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    run: () => {
      started.push(name);
      return done;
    },
    finish: () => finish(),
    fail: (error: Error) => fail(error),
  };
}

interface BlockedWrite {
  write: Promise<Response>;
  /** The order in which the requests were answered. */
  answers: string[];
  release(): Promise<void>;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Admission', () => {
  it('runs at most its limit of operations at once, the others in arrival order', async () => {
    const admission = new Admission(2);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => operation(name, started));
    const runs = [a, b, c, d].map((op) => admission.run(pending(), op.run));
    await turn();
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    a.finish();
    await turn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    c.finish();
    d.finish();
    await Promise.all(runs);
  });

  it("frees a failed operation's slot and passes its error on", async () => {
    const admission = new Admission(1);
    const started: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => operation(name, started));
    const first = admission.run(pending(), a.run);
    const second = admission.run(pending(), b.run);
    a.fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await turn();
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await second;
  });

  it('skips an operation whose request was answered or left while it waited', async () => {
    const admission = new Admission(1);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => operation(name, started));
    const answered = pending();
    const left = pending();
    const runs = [
      admission.run(pending(), a.run),
      admission.run(answered, b.run),
      admission.run(left, c.run),
      admission.run(pending(), d.run),
    ];
    Object.assign(answered, { writableEnded: true });
    Object.assign(left, { destroyed: true });
    a.finish();
    await turn();
    expect(started).toEqual(['a', 'd']);
    d.finish();
    await Promise.all(runs);
  });

  it('with limit 0 runs every operation at once', async () => {
    const admission = new Admission(0);
    const started: string[] = [];
    const ops = ['a', 'b', 'c'].map((name) => operation(name, started));
    const runs = ops.map((op) => admission.run(pending(), op.run));
    expect(started).toEqual(['a', 'b', 'c']);
    ops.forEach((op) => op.finish());
    await Promise.all(runs);
  });
});

describe('MAX_ACTIVE_REQUESTS', () => {
  it('defaults to 16, takes 0 for no limit, and refuses what is not a count', () => {
    expect(loadConfig({}).maxActiveRequests).toBe(8);
    expect(loadConfig({ MAX_ACTIVE_REQUESTS: '0' }).maxActiveRequests).toBe(0);
    expect(() => loadConfig({ MAX_ACTIVE_REQUESTS: '-1' })).toThrow(/MAX_ACTIVE_REQUESTS must be an integer/);
    expect(() => loadConfig({ MAX_ACTIVE_REQUESTS: 'many' })).toThrow(
      /MAX_ACTIVE_REQUESTS must be an integer/,
    );
  });
});

describe('requests admitted in turn (MAX_ACTIVE_REQUESTS=1)', () => {
  const t = useTestApp();

  /**
   * Runs `test` on an app with `env`, beside a write that waits on a row another session
   * holds (it keeps the one slot meanwhile) until `release`; released in the end whatever
   * the test found.
   */
  async function withBlockedWrite(
    env: Record<string, string>,
    test: (app: Parameters<typeof rest>[0], blocked: BlockedWrite) => Promise<void>,
  ): Promise<void> {
    const { app, stop } = await startHttpApp(t.orm, env);
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    await buildAnime(t.orm, { slug: 'frieren' });
    const blocker = t.orm.em.fork();
    await blocker.begin();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await blocker.commit();
    };
    try {
      await blocker.execute('select 1 from "user" where reference = ? for update', [user.reference]);
      const answers: string[] = [];
      const write = rest(app, 'PUT', '/watch/frieren', { status: 'planned' }, { token }).then((res) => {
        answers.push('write');
        return res;
      });
      // The write is admitted and waits on the lock.
      await waitFor(async () => (await waitingOnLocks()) > 0);
      await test(app, { write, answers, release });
    } finally {
      await release();
      await stop();
    }
  }

  const waitingOnLocks = async () => {
    const [{ count }] = await t.orm.em
      .fork()
      .execute<{ count: string }[]>(
        `select count(*) as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
    return Number(count);
  };

  it('runs a read over either door after the request before it, and answers the health check meanwhile', async () => {
    const manga = await buildManga(t.orm);
    await withBlockedWrite({ MAX_ACTIVE_REQUESTS: '1' }, async (app, { write, answers, release }) => {
      const track = (name: string) => (res: Response) => {
        answers.push(name);
        return res;
      };
      const restRead = rest(app, 'GET', `/manga/${manga.slug}`).then(track('rest read'));
      const graphqlRead = gql(app, `query($slug: String!) { manga(slug: $slug) { slug } }`, {
        slug: manga.slug,
      }).then(track('graphql read'));
      expect((await rest(app, 'GET', '/healthz')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answers).toEqual([]);

      await release();
      const [written, restAnswer, graphqlAnswer] = await Promise.all([write, restRead, graphqlRead]);
      expect(written.status).toBe(200);
      expect(restAnswer.status).toBe(200);
      expect(graphqlAnswer.body.data).toEqual({ manga: { slug: manga.slug } });
      expect(answers).toEqual(['write', 'rest read', 'graphql read']);
    });
  });

  it('answers 408 to a request that waited past the time limit', async () => {
    const manga = await buildManga(t.orm);
    const env = { MAX_ACTIVE_REQUESTS: '1', REQUEST_TIMEOUT_MS: '1000' };
    await withBlockedWrite(env, async (app, { write, release }) => {
      const read = await rest(app, 'GET', `/manga/${manga.slug}`);
      expect(read.status).toBe(408);
      expect(read.body).toEqual({ message: expect.any(String), code: 'timeout' });
      await release();
      expect((await write).status).toBe(408);
      // The slot is free again once the write's operation has ended.
      await waitFor(async () => (await rest(app, 'GET', `/manga/${manga.slug}`)).status === 200);
    });
  });
});

/** Polls `condition` every 20 ms, for at most 5 s. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 20) {
    if (waited > 5000) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

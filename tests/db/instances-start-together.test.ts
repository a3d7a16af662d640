import { createServer, type AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { migrationsList } from '../../src/db/migrations';
import { type Instance, startInstance, stop, useEmptyDatabase } from '../setup/instances';
import { databaseUrl } from '../setup/names';

/** A demo account's token, from `POST /auth/login` on `base`. */
async function login(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo-password' }),
  });
  const body = (await res.json()) as { secret?: string };
  if (!body.secret) throw new Error(`cannot log in as ${username}: ${JSON.stringify(body)}`);
  return body.secret;
}

/** How many lines of all the instances' logs carry `message`. */
const logged = (instances: Instance[], message: string) =>
  instances.flatMap((instance) => instance.lines).filter((line) => line.includes(`"msg":"${message}"`))
    .length;

describe('several instances started at once on an empty database', () => {
  const name = useEmptyDatabase('fresh');

  it('all become ready; the migrations and the demo data load ran once, by one of them', async () => {
    const instances = [startInstance(databaseUrl(name)), startInstance(databaseUrl(name))];
    try {
      const bases = await Promise.all(instances.map((instance) => instance.ready));
      for (const base of bases) expect((await fetch(`${base}/readyz`)).status).toBe(200);

      expect(logged(instances, 'applied migrations')).toBe(1);
      expect(logged(instances, 'empty database: loading demo data')).toBe(1);
      const db = new pg.Client({ connectionString: databaseUrl(name) });
      await db.connect();
      try {
        const migrations = await db.query<{ name: string }>('select name from mikro_orm_migrations');
        expect(migrations.rows.map((row) => row.name).sort()).toEqual(
          migrationsList.map((migration) => migration.name).sort(),
        );
        const demo = await db.query(`select 1 from "user" where username = 'demo_user'`);
        expect(demo.rowCount).toBe(1);
      } finally {
        await db.end();
      }
      // Both serve the same data.
      const answers = await Promise.all(
        bases.map(async (base) =>
          (
            await fetch(`${base}/novel`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            })
          ).json(),
        ),
      );
      expect(answers[0]).toEqual(answers[1]);
      expect((answers[0] as { pagination: { total: number } }).pagination.total).toBeGreaterThan(0);

      // A notification caused through one instance reaches a subscriber on the other.
      const [a, b] = bases;
      const followed = await login(b, 'demo_user');
      const client = createClient({
        url: `${b.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { auth: followed },
        retryAttempts: 0,
      });
      try {
        const counts = client.iterate<{ notificationCount: { unseen: number } }>({
          query: 'subscription { notificationCount { unseen } }',
        });
        const before = (await counts.next()).value?.data?.notificationCount.unseen ?? -1;
        expect(before).toBeGreaterThanOrEqual(0);
        const follower = await login(a, 'demo_moderator');
        // The demo data may already have demo_moderator following demo_user.
        await fetch(`${a}/follow/demo_user`, { method: 'DELETE', headers: { auth: follower } });
        const follow = await fetch(`${a}/follow/demo_user`, { method: 'PUT', headers: { auth: follower } });
        expect(follow.status).toBe(200);
        const after = (await counts.next()).value?.data?.notificationCount.unseen;
        expect(after).toBe(before + 1);
      } finally {
        await client.dispose();
      }
    } finally {
      await Promise.all(instances.map(stop));
    }
  }, 120_000);
});

describe('an instance whose port is taken', () => {
  const name = useEmptyDatabase('port');

  it('exits with the reason instead of announcing URLs it does not serve', async () => {
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const { port } = holder.address() as AddressInfo;
    const instance = startInstance(databaseUrl(name), { port, demoData: 'off' });
    try {
      await expect(instance.ready).rejects.toThrow('exited with 1 before listening');
      await instance.closed;
      const output = instance.lines.join('\n');
      expect(output).toContain(`Server: cannot listen on 127.0.0.1:${port}: the address is in use`);
      expect(output).not.toContain('REST API:');
    } finally {
      await stop(instance);
      await new Promise((done) => holder.close(done));
    }
  }, 60_000);
});

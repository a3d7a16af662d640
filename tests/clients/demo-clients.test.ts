import { ActionRecord } from '../../src/accounts/action-record.entity';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { Client } from '../../src/clients/client.entity';
import { seedDemoClients } from '../../src/clients/demo-clients';
import { Notification } from '../../src/notifications/notification.entity';
import { buildToken, buildUser } from '../factories';
import { testClientSecrets } from '../setup/client-secrets';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { storedSecret } from './helpers';

/** seedDemoClients: the demo client of `demo_user`, made through the services. */
const t = useTestApp();

describe('seedDemoClients', () => {
  it('creates the demo client and one exchanged third-party token for demo_user, once', async () => {
    const user = await buildUser(t.orm, { username: 'demo_user' });
    const client = await seedDemoClients(t.orm.em.fork(), testClientSecrets());
    expect(client).not.toBeNull();
    const em = t.orm.em.fork();
    const stored = await em.findOneOrFail(Client, { user: user.reference });
    expect(stored).toMatchObject({
      name: 'Demo tracker',
      verified: false,
      endpoint: 'http://localhost:8080/callback',
    });
    const secret = await storedSecret(t.orm, stored.reference);
    expect(secret).toHaveLength(128);
    const tokens = await em.find(AuthToken, { user: user.reference });
    expect(tokens.map((token) => [token.client?.reference, token.scope])).toEqual([
      [stored.reference, ['watchlist', 'readlist']],
    ]);
    expect(
      await em.count(Notification, { user: user.reference, notification_type: 'thirdparty_login' }),
    ).toBe(1);
    expect(await em.count(ActionRecord, { user: user.reference, type: 'login_thirdparty' })).toBe(1);

    const again = await seedDemoClients(t.orm.em.fork(), testClientSecrets());
    expect(again?.reference).toBe(stored.reference);
    expect(await t.orm.em.fork().count(Client, {})).toBe(1);
    expect(await t.orm.em.fork().count(AuthToken, { client: stored.reference })).toBe(1);

    const session = await buildToken(t.orm, user);
    const listed = await rest(t.app, 'GET', '/auth/token/thirdparty', undefined, { token: session });
    expect(listed.body.pagination.total).toBe(1);
    const mine = await rest(t.app, 'GET', '/client', undefined, { token: session });
    expect(mine.body.list[0]).toMatchObject({ name: 'Demo tracker', secret });
  });

  it('does nothing without demo_user', async () => {
    await buildUser(t.orm);
    expect(await seedDemoClients(t.orm.em.fork(), testClientSecrets())).toBeNull();
    expect(await t.orm.em.fork().count(Client, {})).toBe(0);
  });
});

import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import { Client } from './client.entity';
import type { ClientSecretBox } from './client-secret-box';
import { createClientFor } from './clients.service';
import { createTokenRequestFor, exchangeToken } from './token-flow.service';

const DEMO_OWNER = 'demo_user';
const DEMO_CLIENT = {
  name: 'Demo tracker',
  description: 'A demo third-party app that reads your watch and read lists',
  endpoint: 'http://localhost:8080/callback',
};

/**
 * Demo data of the clients domain, created through its services: a client owned by
 * `demo_user`, and one consent → exchange round trip, so that `demo_user` has a
 * third-party token (GET /auth/token/thirdparty), a `login_thirdparty` action and a
 * `thirdparty_login` notification. Idempotent: does nothing when `demo_user` is
 * missing or already has the demo client. Returns the demo client, if any.
 */
export async function seedDemoClients(em: EntityManager, secrets: ClientSecretBox): Promise<Client | null> {
  const owner = await em.findOne(User, { username: DEMO_OWNER });
  if (!owner) return null;
  const existing = await em.findOne(Client, { user: owner.reference, name: DEMO_CLIENT.name });
  if (existing) return existing;
  const client = await createClientFor(em, owner, DEMO_CLIENT, secrets);
  const request = await em.transactional(async (tx) =>
    createTokenRequestFor(tx, owner, client, ['watchlist', 'readlist']),
  );
  const secret = secrets.open(client.sealed_secret, client.reference);
  await exchangeToken(em, { request_reference: request.reference, client_secret: secret }, secrets);
  return client;
}

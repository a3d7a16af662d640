import type { GraphQLResolveInfo } from 'graphql';
import type { Viewer } from '../accounts/session';
import { RootFieldState } from '../common/root-field-state';
import type { RequestContext } from '../context';
import type { Client } from './client.entity';
import type { ClientSecretBox } from './client-secret-box';

/**
 * The caller as each root field established it. A client's `secret` is shown only to
 * the client's owner (semantics §1.6), and "the caller" is whoever the root field
 * authenticated: GET /client/{client_reference} never resolves the token (no
 * authentication), so even its owner gets `secret: null` there, also next to a root
 * field of the same document that does authenticate.
 */
const callers = new RootFieldState<Viewer | null>(null);

/** Required authentication (semantics §1.2) that also records the caller for `secret`. */
export async function authenticate(ctx: RequestContext, info: GraphQLResolveInfo): Promise<Viewer> {
  const viewer = await ctx.auth.required();
  callers.set(info, viewer);
  return viewer;
}

/** The 128-character secret when the root field's authenticated caller owns the client, else null. */
export function secretFor(info: GraphQLResolveInfo, client: Client, secrets: ClientSecretBox): string | null {
  const caller = callers.get(info);
  const owner = caller && caller.user.reference === client.user.reference;
  return owner ? secrets.open(client.sealed_secret, client.reference) : null;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type DataLoader from 'dataloader';
import type { Logger } from 'pino';
import type { AccountServices } from './accounts/account-services';
import { AuthSession } from './common/auth/session';
import type { Language } from './common/errors/app-error';

/**
 * Per-request context shared by GraphQL resolvers and the REST facade: one forked
 * entity manager, the lazily resolved caller and request-scoped DataLoaders.
 */
export class RequestContext {
  readonly auth: AuthSession;
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();

  constructor(
    readonly em: EntityManager,
    readonly requestId: string,
    readonly language: Language,
    readonly log: Logger,
    rawToken: string | undefined,
    /** The mailer and account settings of the app (signup, activation emails). */
    readonly accounts: AccountServices,
    /** The raw `captcha` header (signup and login, when a verifier is configured). */
    readonly captcha: string | undefined,
  ) {
    this.auth = new AuthSession(em, rawToken);
  }

  /** The request's DataLoader under `key`, created on first use. */
  loader<K, V>(key: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
    let loader = this.loaders.get(key) as DataLoader<K, V> | undefined;
    if (!loader) {
      loader = create();
      this.loaders.set(key, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  }
}

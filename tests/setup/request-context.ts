import type { EntityManager } from '@mikro-orm/postgresql';
import pino from 'pino';
import { RequestContext } from '../../src/context';
import type { NotificationBus } from '../../src/notifications/live/notification-bus';

/**
 * A request's context outside HTTP, for tests that drive services, plans or mutations
 * directly: English, a silent log, no account services or captcha.
 */
export function requestContext(
  em: EntityManager,
  id: string,
  { token, notifications }: { token?: string; notifications?: NotificationBus } = {},
): RequestContext {
  return new RequestContext(
    em,
    id,
    'en',
    pino({ level: 'silent' }),
    token,
    undefined as never,
    undefined,
    notifications,
  );
}

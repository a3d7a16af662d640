import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';
import type { Language } from './errors/app-error';

export interface RequestScope {
  requestId: string;
  language: Language;
  log: Logger;
}

/**
 * Facts about the current `/graphql` request for code without access to its context:
 * Apollo's error formatter chooses the message language from it. Entered only there;
 * REST passes its context along instead, so the hottest reads do not carry one more
 * store into every promise and timer they create (Node 20 copies each active store's
 * value onto every new async resource).
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';
import type { Language } from './errors/app-error';

export interface RequestScope {
  requestId: string;
  language: Language;
  log: Logger;
}

/**
 * Facts about the current HTTP request that code without access to the GraphQL
 * context needs (Apollo's error formatter chooses the message language from it).
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();

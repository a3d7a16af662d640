import { ClientResolver } from './clients.resolver';
import { TokenFlowResolver, TokenInfoResolver } from './tokens.resolver';

/** Every resolver of the clients domain, for src/schema.ts. */
export const clientResolvers = [ClientResolver, TokenFlowResolver, TokenInfoResolver] as const;

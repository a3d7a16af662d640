import { VoteResolver } from '../votes/vote.resolver';
import { ArticleResolver } from './article.resolver';

/** The article and vote resolvers, for the schema. */
export const articleResolvers = [ArticleResolver, VoteResolver] as const;

import { Ctx, Field, FieldResolver, Float, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { usersByReference } from '../collections/collection.loaders';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';
import { Tag } from './article.entity';

/** An author's last 30 days (pages.md "Articles"). */
@ObjectType()
export class AuthorStats {
  user_reference!: string;

  @Field(() => Int, { description: 'Published articles.' })
  total_articles!: number;

  @Field(() => Int, { description: 'Comments on them.' })
  total_comments!: number;

  @Field(() => Int, { description: 'Their vote score.' })
  total_likes!: number;

  @Field(() => Float, { description: '2 × likes + comments + 1.5 × articles.' })
  author_score!: number;
}

/** GET /articles/stats: the month's top authors and the most used tags. */
@ObjectType()
export class ArticleStats {
  @Field(() => [AuthorStats], { description: 'Up to 10 authors, the best author_score first.' })
  authors!: AuthorStats[];

  @Field(() => [Tag], { description: 'The 10 most used tags.' })
  tags!: Tag[];
}

/**
 * The authors of published, non-deleted, non-`system` articles created in the 30 days
 * before `now` (SQL), with their figures, the best 10 by author_score, then user reference.
 */
const authorStatsSql = (now: string): string =>
  `select s.*, 2 * s.total_likes + s.total_comments + 1.5 * s.total_articles as author_score from (
     select a.author_reference as user_reference, count(*)::int as total_articles,
            coalesce(sum(a.comments_count), 0)::int as total_comments, coalesce(sum(a.vote_score), 0)::int as total_likes
       from article a
      where not a.draft and not a.deleted and a.category <> 'system' and a.created > ${now} - interval '30 days'
      group by a.author_reference
   ) s order by author_score desc, s.user_reference limit 10`;

/** The 10 tags carried by the most articles, then by name ("C" order). */
const TOP_TAGS = `select * from tag where content_count > 0 order by content_count desc, name collate "C" limit 10`;

@Resolver(() => AuthorStats)
export class ArticleStatsResolver {
  /** Optional authentication, scope `read:articles_top` (for `is_followed`). */
  @Query(() => ArticleStats, {
    description:
      'GET /articles/stats: the top authors of the last 30 days and the most used tags (scope read:articles_top).',
  })
  async articleStats(@Ctx() ctx: RequestContext): Promise<ArticleStats> {
    await ctx.auth.optional(['read:articles_top']);
    const authors = await ctx.em.execute<AuthorStats[]>(authorStatsSql('?::timestamptz'), [ctx.now]);
    const tags = await ctx.em.execute<Record<string, unknown>[]>(TOP_TAGS);
    return { authors, tags: tags.map((row) => ctx.em.map(Tag, row)) };
  }

  @FieldResolver(() => User, { description: 'The author; select is_followed for the caller.' })
  user(@Root() stats: AuthorStats, @Ctx() ctx: RequestContext): Promise<User> {
    return usersByReference(ctx).load(stats.user_reference);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const articleStatsSqlForms: readonly SqlForm[] = [
  sqlRowType(ArticleStats),
  sqlRowType(AuthorStats),
  sqlRoot('articleStats', {
    kind: 'one',
    type: ArticleStats,
    rows: (stats) => ({ from: `(select 1) ${stats}` }),
    scopes: ['read:articles_top'],
  }),
  sqlFields(ArticleStats, {
    authors: sqlRows((_stats, author, { now }) => ({
      from: `(${authorStatsSql(now)}) ${author}`,
      orderBy: `${author}.author_score desc, ${author}.user_reference`,
    })),
    tags: sqlRows((_stats, tag) => ({
      from: `(${TOP_TAGS}) ${tag}`,
      orderBy: `${tag}.content_count desc, ${tag}.name collate "C"`,
    })),
  }),
  sqlFields(AuthorStats, {
    user: sqlRows((author, user) => ({
      from: `"user" ${user}`,
      where: `${user}.reference = ${author}.user_reference`,
    })),
  }),
];

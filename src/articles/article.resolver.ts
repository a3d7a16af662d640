import { wrap } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import {
  Arg,
  Args,
  Authorized,
  Ctx,
  FieldResolver,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { User } from '../accounts/user.entity';
import { titleEntity } from '../catalog/catalog.service';
import { usersByReference } from '../collections/collection.loaders';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import { DeleteResult } from '../common/delete-result';
import type { TitleContentType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import { PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { viewerVoteScores } from '../votes/vote.loaders';
import { Article, Tag } from './article.entity';
import {
  type ArticleTagRow,
  createArticle,
  deleteArticle,
  listArticles,
  readArticle,
  type SavedArticle,
  updateArticle,
} from './article.service';
import { ArticleContent, ArticleInput, ArticleListInput, ArticlePage } from './article.types';

/** Every field the Tag type declares, as the tag loader reads it. */
type TagFields = Pick<Tag, 'reference' | 'name' | 'content_count'>;

/** Each article's tags in saved order, read fresh (counts move in SQL). */
function articleTags(ctx: RequestContext): DataLoader<string, ArticleTagRow[]> {
  return groupedLoader(
    ctx,
    'articles:tags',
    async (articles) =>
      ctx.em.execute<ArticleTagRow[]>(
        `select at.article_reference, t.reference, t.name, t.content_count from article_tag at
            join tag t on t.reference = at.tag_reference
           where at.article_reference in (${articles.map(() => '?').join(', ')})
           order by at.position`,
        [...articles],
      ),
    (row) => row.article_reference,
  );
}

/** The written article, its tags and the caller's vote known to the answer's loaders: nothing to look up again. */
function answerSaved(ctx: RequestContext, { article, tags, callerVote }: SavedArticle): Article {
  articleTags(ctx).clear(article.reference).prime(article.reference, tags);
  viewerVoteScores(ctx, 'article').clear(article.reference).prime(article.reference, callerVote);
  return article;
}

/** The attached catalog items of one kind, by reference (deleted ones are not shown). */
function titlesByReference(
  ctx: RequestContext,
  kind: TitleContentType,
): DataLoader<string, CatalogTitle | null> {
  return ctx.loader(
    `articles:content:${kind}`,
    () =>
      new DataLoader<string, CatalogTitle | null>(async (references) => {
        const titles = (await ctx.em.find(titleEntity(kind), {
          reference: { $in: [...references] },
          deleted: false,
        } as never)) as CatalogTitle[];
        const byReference = new Map(titles.map((title) => [title.reference, title]));
        return references.map((reference) => byReference.get(reference) ?? null);
      }),
  );
}

/**
 * Articles (semantics #4, #5, §3.8). `@Authorized()` authenticates before the input
 * is checked, as the REST door does; permissions and scopes come after the look-ups.
 */
@Resolver(() => Article)
export class ArticleResolver {
  @Authorized()
  @Mutation(() => Article, {
    description: '#5 POST /articles/create (permission article:create, scope create:article).',
  })
  async createArticle(
    @Arg('input', () => ArticleInput) input: ArticleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Article> {
    return answerSaved(ctx, await createArticle(ctx.em, await ctx.auth.required(), input));
  }

  @Authorized()
  @Mutation(() => Article, {
    description: '#4 PUT /articles/{slug}: replaces the editable fields (permission article:update).',
  })
  async updateArticle(
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => ArticleInput) input: ArticleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Article> {
    return answerSaved(ctx, await updateArticle(ctx.em, await ctx.auth.required(), slug, input));
  }

  @Query(() => Article, {
    description: 'GET /articles/{slug}: one article (drafts included); adds 1 to views.',
  })
  async article(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Article> {
    await ctx.auth.optional();
    return readArticle(ctx.em, slug);
  }

  @Authorized()
  @Mutation(() => DeleteResult, { description: 'DELETE /articles/{slug} (permission article:delete).' })
  async deleteArticle(
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    await deleteArticle(ctx.em, await ctx.auth.required(), slug);
    return new DeleteResult();
  }

  @Query(() => ArticlePage, { description: 'POST /articles: the article list (scope read:articles).' })
  async articles(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => ArticleListInput) input: ArticleListInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ArticlePage> {
    const viewer = await ctx.auth.optional(['read:articles']);
    return listArticles(ctx.em, viewer, input, page);
  }

  @FieldResolver(() => String)
  data_type(): string {
    return 'article';
  }

  @FieldResolver(() => User, { description: 'The author; select is_followed on it (semantics §1.6).' })
  author(@Root() article: Article, @Ctx() ctx: RequestContext): User | Promise<User> {
    // Loaded already by this request (the caller, who mostly edits their own): no query.
    if (wrap(article.author).isInitialized()) return article.author;
    return usersByReference(ctx).load(article.author.reference);
  }

  @FieldResolver(() => [Tag], { description: 'The tags in the order given when the article was last saved.' })
  tags(@Root() article: Article, @Ctx() ctx: RequestContext): Promise<TagFields[]> {
    return articleTags(ctx).load(article.reference);
  }

  @FieldResolver(() => ArticleContent, { nullable: true })
  async content(@Root() article: Article, @Ctx() ctx: RequestContext): Promise<ArticleContent | null> {
    if (!article.content_type || !article.content_reference) return null;
    const title = await titlesByReference(ctx, article.content_type).load(article.content_reference);
    if (!title) return null;
    const fields = title as CatalogTitle & { title_ja?: string | null; title_original?: string | null };
    return Object.assign(new ArticleContent(), {
      data_type: article.content_type,
      image: title.image,
      title_en: title.title_en,
      title_ua: title.title_ua,
      slug: title.slug,
      title_ja: (article.content_type === 'anime' ? fields.title_ja : fields.title_original) ?? null,
    });
  }

  @FieldResolver(() => Int, { description: "The caller's vote (−1, 0 or 1; 0 when anonymous)." })
  my_score(@Root() article: Article, @Ctx() ctx: RequestContext): Promise<number> {
    return viewerVoteScores(ctx, 'article').load(article.reference);
  }
}

import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Authorized,
  Ctx,
  FieldResolver,
  Info,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { DeleteResult } from '../common/delete-result';
import type { CommentContentType, ReviewRecommendation } from '../common/enums';
import { PageArgs } from '../common/pagination/pagination';
import { RootFieldState } from '../common/root-field-state';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, sqlRowType, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { viewerVoteScores, viewerVoteSql } from '../votes/vote.loaders';
import { pathReference } from '../common/validation/uuid';
import { commentContentSubject } from './comment-content';
import { Comment, CommentContentTypeEnum } from './comment.entity';
import {
  commentThread,
  commentThreadSubject,
  contentComments,
  contentCommentsQuery,
  latestCommentRows,
  latestComments,
  listComments,
  publicCommentsQuery,
  replyRows,
  servedThreadSql,
} from './comment-read.service';
import { editComment, hideComment, MAX_VERSIONS, writeComment } from './comment.service';
import {
  CommentListTypeEnum,
  CommentPage,
  CommentPreviewType,
  CommentReviewType,
  EditCommentInput,
  type CommentListType,
  ReviewRecommendationEnum,
  WriteCommentInput,
} from './comment.types';

const READ_SCOPE = ['read:comment:score'];

/**
 * How a root field serves its comments: the reply trees it loaded (`replies` is []
 * for any comment outside them), and whether it serves them without a viewer (#20:
 * authentication none, `my_score` 0).
 */
const serving = new RootFieldState<{ replies: ReadonlyMap<string, Comment[]>; anonymous: boolean }>({
  replies: new Map(),
  anonymous: false,
});

/** Earlier versions per comment, batched per request (`is_editable`). */
function versionCounts(ctx: RequestContext): DataLoader<string, number> {
  return ctx.loader(
    'comments:versions',
    () =>
      new DataLoader<string, number>(async (references) => {
        const rows = await ctx.em.execute<{ comment: string; count: string }[]>(
          `select comment_reference as comment, count(*) as count from comment_version
            where comment_reference in (${references.map(() => '?').join(', ')}) group by comment_reference`,
          [...references],
        );
        const counts = new Map(rows.map((row) => [row.comment, Number(row.count)]));
        return references.map((reference) => counts.get(reference) ?? 0);
      }),
  );
}

/**
 * Loads the viewer-dependent values of every node in one query each, so that a
 * page of threads costs the same whatever its size and depth.
 */
async function prime(ctx: RequestContext, nodes: Comment[], withViewer = true): Promise<void> {
  const references = nodes.map((node) => node.reference);
  if (references.length === 0) return;
  await versionCounts(ctx).loadMany(references);
  if (withViewer) await viewerVoteScores(ctx, 'comment').loadMany(references);
}

@Resolver(() => Comment)
export class CommentResolver {
  @Authorized()
  @Mutation(() => Comment, {
    description: 'PUT /comments/{content_type}/{slug}: writes a comment or reply (permission comment:write).',
  })
  async writeComment(
    @Arg('content_type', () => CommentContentTypeEnum) contentType: CommentContentType,
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => WriteCommentInput) input: WriteCommentInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Comment> {
    const comment = await writeComment(ctx.em, await ctx.auth.required(), contentType, slug, input);
    // A new comment has no earlier versions and no votes yet: nothing to look up for the answer.
    versionCounts(ctx).prime(comment.reference, 0);
    viewerVoteScores(ctx, 'comment').prime(comment.reference, 0);
    return comment;
  }

  @Authorized()
  @Mutation(() => Comment, {
    description: "PUT /comments/{comment_reference}: edits the caller's comment (permission comment:edit).",
  })
  async editComment(
    @Arg('comment_reference', () => String) reference: string,
    @Arg('input', () => EditCommentInput) input: EditCommentInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Comment> {
    const viewer = await ctx.auth.required();
    return editComment(ctx.em, viewer, pathReference(reference, 'comment_reference'), input);
  }

  @Authorized()
  @Mutation(() => DeleteResult, {
    description: 'DELETE /comments/{comment_reference}: hides a comment (own, or any for admins).',
  })
  async hideComment(
    @Arg('comment_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    const viewer = await ctx.auth.required();
    await hideComment(ctx.em, viewer, pathReference(reference, 'comment_reference'));
    return new DeleteResult();
  }

  @Query(() => CommentPage, {
    description:
      'Contract #9 GET /comments/{content_type}/{slug}/list: listable top-level comments, newest first, ' +
      'each with its reply tree (scope read:comment:score).',
  })
  async contentComments(
    @Arg('content_type', () => CommentContentTypeEnum) contentType: CommentContentType,
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('comment_type', () => CommentListTypeEnum, { nullable: true, defaultValue: 'all' })
    commentType: CommentListType,
    @Arg('recommended', () => ReviewRecommendationEnum, { nullable: true })
    recommended: ReviewRecommendation | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<CommentPage> {
    const viewer = await ctx.auth.optional();
    const result = await contentComments(
      ctx.em,
      contentType,
      slug,
      viewer?.user.reference ?? null,
      { comment_type: commentType, recommended },
      page,
      () => ctx.auth.optional(READ_SCOPE),
    );
    serving.set(info, { replies: result.trees.replies, anonymous: false });
    await prime(ctx, result.trees.nodes);
    return result.page;
  }

  @Query(() => CommentPage, {
    description:
      'Contract #10 GET /comments/list: public top-level comments across all content, newest first (flat).',
  })
  async comments(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: RequestContext): Promise<CommentPage> {
    await ctx.auth.optional(READ_SCOPE);
    const result = await listComments(ctx.em, page);
    await prime(ctx, result.list);
    return result;
  }

  @Query(() => Comment, {
    description:
      'Contract #17 GET /comments/thread/{comment_reference}: one comment with its reply tree ' +
      '(scope read:comment:score).',
  })
  async commentThread(
    @Arg('comment_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Comment> {
    const viewer = await ctx.auth.optional();
    const result = await commentThread(
      ctx.em,
      pathReference(reference, 'comment_reference'),
      viewer?.user.reference ?? null,
      () => ctx.auth.optional(READ_SCOPE),
    );
    serving.set(info, { replies: result.trees.replies, anonymous: false });
    await prime(ctx, result.trees.nodes);
    return result.comment;
  }

  @Query(() => [Comment], {
    description:
      'Contract #20 GET /comments/latest: the 3 latest public top-level comments (no authentication).',
  })
  async latestComments(@Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo): Promise<Comment[]> {
    const list = await latestComments(ctx.em);
    serving.set(info, { replies: new Map(), anonymous: true });
    await prime(ctx, list, false);
    return list;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Reference of the parent; null at depth 1.' })
  parent(@Root() comment: Comment): string | null {
    return comment.parent?.reference ?? null;
  }

  @FieldResolver(() => [Comment], { description: 'Nested replies where the endpoint says so, else [].' })
  replies(@Root() comment: Comment, @Info() info: GraphQLResolveInfo): Comment[] {
    return serving.get(info).replies.get(comment.reference) ?? [];
  }

  @FieldResolver(() => String, { description: 'The text; "" for a hidden comment.' })
  text(@Root() comment: Comment): string {
    return comment.hidden ? '' : comment.text;
  }

  @FieldResolver(() => Boolean, { description: 'Not hidden and fewer than 500 earlier versions.' })
  async is_editable(@Root() comment: Comment, @Ctx() ctx: RequestContext): Promise<boolean> {
    if (comment.hidden) return false;
    return (await versionCounts(ctx).load(comment.reference)) < MAX_VERSIONS;
  }

  @FieldResolver(() => Int, { description: "The caller's vote on the comment (0 when anonymous)." })
  async my_score(
    @Root() comment: Comment,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<number> {
    if (serving.get(info).anonymous) return 0;
    return viewerVoteScores(ctx, 'comment').load(comment.reference);
  }

  @FieldResolver(() => CommentPreviewType, { description: 'The commented content: {title, image, slug}.' })
  preview(@Root() comment: Comment): CommentPreviewType {
    return comment.preview;
  }

  @FieldResolver(() => CommentReviewType, {
    nullable: true,
    description: 'GraphQL only: the review the comment carries.',
  })
  review(@Root() comment: Comment): CommentReviewType | null {
    if (comment.review_recommendation === null) return null;
    return { recommended: comment.review_recommendation, score: comment.review_score ?? 0 };
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const commentSqlForms: readonly SqlForm[] = [
  // The reads in one SQL statement each (src/graphql/sql-plan), serving as the resolvers
  // above do: reply trees for #9 and #17 (`replyTrees`), no caller for #20 (`anonymous`).
  sqlRoot('contentComments', {
    kind: 'page',
    item: Comment,
    subject: async (args, ctx) =>
      commentContentSubject(
        args.content_type as CommentContentType,
        String(args.slug),
        await ctx.auth.viewerReference(),
      ),
    query: async (_ctx, args, content) =>
      contentCommentsQuery(args.content_type as CommentContentType, content, {
        comment_type: args.comment_type as CommentListType,
        recommended: args.recommended as ReviewRecommendation | null,
      }),
    scopes: READ_SCOPE,
    serving: { replyTrees: true },
  }),
  sqlRoot('comments', {
    kind: 'page',
    item: Comment,
    query: async () => publicCommentsQuery,
    scopes: READ_SCOPE,
  }),
  sqlRoot('commentThread', {
    kind: 'one',
    type: Comment,
    subject: async (args, ctx) =>
      commentThreadSubject(
        pathReference(String(args.comment_reference), 'comment_reference'),
        await ctx.auth.viewerReference(),
      ),
    rows: (comment, _args, found, table) => ({
      from: `${table} ${comment}`,
      where: `${comment}.reference = ${found} and ${servedThreadSql(comment)}`,
    }),
    withheld: 'comment:hidden',
    scopes: READ_SCOPE,
    serving: { replyTrees: true },
  }),
  sqlRoot('latestComments', {
    kind: 'list',
    type: Comment,
    rows: (comment) => latestCommentRows(comment),
    serving: { anonymous: true },
  }),
  sqlFields(Comment, {
    parent: sqlValue((comment) => `${comment}.parent_reference`),
    replies: sqlRows((comment, reply, { serving }) =>
      serving.replyTrees ? replyRows(comment, reply) : { from: `comment ${reply}`, where: 'false' },
    ),
    text: sqlValue((comment) => `case when ${comment}.hidden then '' else ${comment}.text end`),
    is_editable: sqlValue(
      (comment) => `not ${comment}.hidden and (select count(*) from comment_version v
      where v.comment_reference = ${comment}.reference) < ${MAX_VERSIONS}`,
    ),
    my_score: sqlValue(
      (comment, { viewer, serving }) =>
        serving.anonymous ? '0' : viewerVoteSql('comment', `${comment}.reference`, viewer),
      'smallint',
    ),
    preview: sqlRows((comment, preview) => ({
      from: `jsonb_to_record(${comment}.preview) ${preview}(title text, image text, slug text)`,
    })),
    review: sqlRows((comment, review) => ({
      from: `(select ${comment}.review_recommendation as recommended, coalesce(${comment}.review_score, 0) as score) ${review}`,
      where: `${review}.recommended is not null`,
    })),
  }),
  sqlRowType(CommentPreviewType),
  sqlRowType(CommentReviewType),
];

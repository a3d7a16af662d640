import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { REVIEW_RECOMMENDATIONS, type ReviewRecommendation } from '../common/enums';
import { ImageUrl } from '../common/scalars';
import { valueListType } from '../common/scalars/value-list';
import { PagedType } from '../common/pagination/pagination';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';
import { enumValue, optionalField } from '../common/validation/schemas';
import { Comment } from './comment.entity';

export const ReviewRecommendationEnum = valueListType('ReviewRecommendation', REVIEW_RECOMMENDATIONS);
export const COMMENT_LIST_TYPES = ['all', 'comment', 'review'] as const;
export type CommentListType = (typeof COMMENT_LIST_TYPES)[number];
export const CommentListTypeEnum = valueListType('CommentListType', COMMENT_LIST_TYPES);

/** Longest comment text, after leading and trailing newlines are stripped (§3.5). */
const COMMENT_TEXT_MAX = 2048;

/**
 * Markup that renders as nothing: whitespace (with U+2800 and U+FFF4, which the
 * service removes), emphasis markers (`*`, `_`, `~`), markdown links
 * (`[label](url)`, removed whole) and spoiler markers (`||`, `>!`, `!<`,
 * `:::spoiler`, `:::`).
 */
const EMPTY_MARKDOWN =
  '^(?:[\\s\\u2800\\uFFF4\\u200B*_~]|\\[[^\\]]*\\]\\([^)]*\\)|\\|\\||>!|!<|:::spoiler|:::)*$';

/**
 * `text`: a string whose length, once leading and trailing newlines are stripped,
 * is 1..2048, and which is not empty as markdown (§3.5).
 */
export const commentTextField: JsonSchema = {
  type: 'string',
  pattern: `^[\\r\\n]*[^\\r\\n](?:[\\s\\S]{0,${COMMENT_TEXT_MAX - 2}}[^\\r\\n])?[\\r\\n]*$`,
  not: { type: 'string', pattern: EMPTY_MARKDOWN },
};

const reviewObject: JsonSchema = {
  type: 'object',
  properties: { recommended: enumValue(REVIEW_RECOMMENDATIONS) },
  required: ['recommended'],
  additionalProperties: false,
};

/** PUT /comments/{content_type}/{slug} body, in the spec's order. */
export const WRITE_COMMENT_BODY: ObjectSpec = {
  properties: {
    text: commentTextField,
    review: optionalField(reviewObject),
    parent: optionalField({
      type: 'string',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    }),
  },
  required: ['text'],
};

/** PUT /comments/{comment_reference} body: `review` null (or absent) removes the review. */
export const EDIT_COMMENT_BODY: ObjectSpec = {
  properties: {
    text: commentTextField,
    review: optionalField(reviewObject),
  },
  required: ['text'],
};

@InputType({ description: 'A review carried by a comment (anime, manga and novels only).' })
export class ReviewInput {
  @Field(() => ReviewRecommendationEnum)
  recommended!: ReviewRecommendation;
}

@InputType({ description: 'PUT /comments/{content_type}/{slug} body (§3.5).' })
export class WriteCommentInput {
  @Field(() => String)
  text!: string;

  @Field(() => ReviewInput, { nullable: true })
  review?: ReviewInput | null;

  @Field(() => String, { nullable: true, description: 'Reference of the comment replied to.' })
  parent?: string | null;
}
registerInputSpec(WriteCommentInput, WRITE_COMMENT_BODY);

@InputType({ description: 'PUT /comments/{comment_reference} body (§3.5); no review removes it.' })
export class EditCommentInput {
  @Field(() => String)
  text!: string;

  @Field(() => ReviewInput, { nullable: true })
  review?: ReviewInput | null;
}
registerInputSpec(EditCommentInput, EDIT_COMMENT_BODY);

/** `preview` of a comment: the commented content (§6.6). */
@ObjectType('CommentPreview')
export class CommentPreviewType {
  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => ImageUrl, { nullable: true })
  image!: string | null;

  @Field(() => String)
  slug!: string;
}

/** GraphQL-only: the review a comment carries. */
@ObjectType('CommentReview')
export class CommentReviewType {
  @Field(() => ReviewRecommendationEnum)
  recommended!: ReviewRecommendation;

  @Field(() => Int, { description: "The author's list score for the content when reviewed (0 if none)." })
  score!: number;
}

@ObjectType()
export class CommentPage extends PagedType(Comment) {}

/** Leading and trailing newlines stripped, U+2800 and U+FFF4 removed (§3.5). */
export function cleanCommentText(text: string): string {
  return text.replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/[\u2800\uFFF4]/g, '');
}

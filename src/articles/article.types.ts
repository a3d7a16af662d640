import { Field, InputType, ObjectType } from 'type-graphql';
import { ARTICLE_CATEGORIES, TITLE_CONTENT_TYPES, type ArticleCategory } from '../common/enums';
import { PagedType } from '../common/pagination/pagination';
import { ImageUrl, IntegerInput, JSONScalar, TitleContentTypeEnum } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import { type JsonSchema, namedCheck, type ObjectSpec } from '../common/validation/json-schema';
import {
  booleanField,
  enumArray,
  enumValue,
  integerField,
  nullableText,
  optionalField,
  sortField,
} from '../common/validation/schemas';
import { Article, ArticleCategoryEnum } from './article.entity';
import { isValidDocument } from './document';

/**
 * A tag: 3 to 16 characters from `a`–`z` and the lower-case Ukrainian letters except
 * `є` (so none of `ё ъ ы э` either; capitals and the apostrophe are rejected).
 */
export const TAG_PATTERN = '^[a-zа-щьюяіїґ]{3,16}$';
const tagName: JsonSchema = { type: 'string', pattern: TAG_PATTERN };
const tagsField: JsonSchema = { type: 'array', maxItems: 3, items: tagName };

/** `null` or `{content_type, slug}` (a closed object). */
const contentField: JsonSchema = {
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      properties: { content_type: enumValue(TITLE_CONTENT_TYPES), slug: { type: 'string' } },
      required: ['content_type', 'slug'],
      additionalProperties: false,
    },
  ],
};

/** The #4/#5 body, fields in the contract's order (semantics §2 #4, #5). */
export const ARTICLE_BODY: ObjectSpec = {
  properties: {
    title: { type: 'string', minLength: 3, maxLength: 255 },
    document: { type: 'array', minItems: 1, ...namedCheck('article-document', isValidDocument) },
    content: contentField,
    tags: tagsField,
    draft: booleanField,
    category: enumValue(ARTICLE_CATEGORIES),
    trusted: booleanField,
  },
  required: ['title', 'document', 'tags', 'category'],
};

interface ArticleContentRef {
  content_type: 'anime' | 'manga' | 'novel';
  slug: string;
}

/**
 * An article as saved (#4, #5). `document` and `content` are JSON values whose
 * rules ARTICLE_BODY states, so both doors reject the same inputs the same way.
 */
@InputType({ description: 'An article as saved by #4 and #5.' })
export class ArticleInput {
  @Field(() => String, { description: '3..255 characters.' })
  title!: string;

  @Field(() => JSONScalar, {
    description: 'A valid document tree: ≥ 1 node, ≤ 1000 nodes, depth ≤ 10, JSON ≤ 65,536 characters.',
  })
  document!: unknown[];

  @Field(() => JSONScalar, { nullable: true, description: 'null or {content_type, slug}.' })
  content?: ArticleContentRef | null;

  @Field(() => [String], { description: 'At most 3 tags; duplicates are dropped.' })
  tags!: string[];

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  draft?: boolean;

  @Field(() => ArticleCategoryEnum)
  category!: ArticleCategory;

  @Field(() => Boolean, { nullable: true, description: 'Default false; admins only.' })
  trusted?: boolean;
}
registerInputSpec(ArticleInput, ARTICLE_BODY);

/** The catalog item an article is attached to (semantics §1.6). */
@ObjectType({
  description: 'The catalog item of an article; title_ja is title_original for manga and novels.',
})
export class ArticleContent {
  @Field(() => TitleContentTypeEnum)
  data_type!: 'anime' | 'manga' | 'novel';

  @Field(() => ImageUrl, { nullable: true })
  image!: string | null;

  @Field(() => String, { nullable: true })
  title_en!: string | null;

  @Field(() => String, { nullable: true })
  title_ua!: string | null;

  @Field(() => String)
  slug!: string;

  @Field(() => String, { nullable: true })
  title_ja!: string | null;
}

export const ARTICLE_SORT_FIELDS = ['vote_score', 'created'] as const;
export type ArticleSortField = (typeof ARTICLE_SORT_FIELDS)[number];

/** POST /articles body (semantics §3.8). */
export const ARTICLE_LIST_BODY: ObjectSpec = {
  properties: {
    categories: enumArray(ARTICLE_CATEGORIES),
    tags: { type: 'array', maxItems: 3, items: { type: 'string' } },
    content_type: optionalField(enumValue(TITLE_CONTENT_TYPES)),
    content_slug: optionalField({ type: 'string' }),
    min_vote_score: optionalField(integerField({ minimum: 0 })),
    show_trusted: booleanField,
    author: optionalField({ type: 'string' }),
    draft: booleanField,
    sort: sortField(ARTICLE_SORT_FIELDS),
    query: optionalField(nullableText(2, 255)),
  },
};

@InputType({ description: 'Filters of the article list (semantics §3.8).' })
export class ArticleListInput {
  @Field(() => [ArticleCategoryEnum], { nullable: true })
  categories?: ArticleCategory[];

  @Field(() => [String], { nullable: true })
  tags?: string[];

  @Field(() => TitleContentTypeEnum, { nullable: true })
  content_type?: 'anime' | 'manga' | 'novel';

  @Field(() => String, { nullable: true })
  content_slug?: string;

  @Field(() => IntegerInput, { nullable: true })
  min_vote_score?: number;

  @Field(() => Boolean, { nullable: true })
  show_trusted?: boolean;

  @Field(() => String, { nullable: true })
  author?: string;

  @Field(() => Boolean, { nullable: true })
  draft?: boolean;

  @Field(() => [String], { nullable: true })
  sort?: string[];

  @Field(() => String, { nullable: true })
  query?: string | null;
}
registerInputSpec(ArticleListInput, ARTICLE_LIST_BODY);

@ObjectType()
export class ArticlePage extends PagedType(Article) {}

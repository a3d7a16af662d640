import {
  Collection,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  PrimaryKeyProp,
  Property,
  Unique,
} from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { ARTICLE_CATEGORIES, type ArticleCategory, type TitleContentType } from '../common/enums';
import { JSONScalar, UnixTime } from '../common/scalars';
import { valueListType } from '../common/scalars/value-list';
import { now, ReferencedEntity } from '../db/base.entity';

export const ArticleCategoryEnum = valueListType('ArticleCategory', ARTICLE_CATEGORIES);

/**
 * An article; `document` is stored exactly as last saved. `author`, `tags`,
 * `content`, `my_score` and `data_type` are served by ArticleResolver.
 */
@ObjectType({ description: 'An article (semantics §1.6).' })
@Entity()
@Index({ properties: ['category', 'draft', 'created'] })
export class Article extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

  @Field(() => String)
  @Property({ type: 'text' })
  title!: string;

  @Field(() => ArticleCategoryEnum)
  @Property({ type: 'text' })
  category!: ArticleCategory;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  draft: boolean = true;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  trusted: boolean = false;

  @Field(() => JSONScalar, { description: 'The article body, exactly as last saved.' })
  @Property({ type: 'json' })
  document!: unknown[];

  @Field(() => JSONScalar, {
    description: 'The document cut to about 300 characters of text (semantics §6.6).',
  })
  @Property({ type: 'json' })
  preview!: unknown[];

  @Property({ type: 'text', nullable: true })
  content_type: TitleContentType | null = null;

  @Property({ type: 'uuid', nullable: true })
  content_reference: string | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  vote_score: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  views: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  comments_count: number = 0;

  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @OneToMany(() => ArticleTag, (link) => link.article, { orderBy: { position: 'asc' } })
  tags = new Collection<ArticleTag>(this);

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

@ObjectType({ description: 'An article tag and the number of non-deleted articles carrying it.' })
@Entity()
export class Tag extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  name!: string;

  /** Non-deleted articles (drafts included) carrying the tag. */
  @Field(() => Int)
  @Property({ type: 'integer' })
  content_count: number = 0;
}

/** An article's tag, kept in the order given when the article was last saved. */
@Entity()
export class ArticleTag {
  [PrimaryKeyProp]?: ['article', 'tag'];

  @ManyToOne(() => Article, { primary: true, deleteRule: 'cascade' })
  article!: Article;

  @ManyToOne(() => Tag, { primary: true, deleteRule: 'cascade', index: true })
  tag!: Tag;

  @Property({ type: 'smallint' })
  position!: number;
}

/** An uploaded image that an article may embed (uploading is outside the specification). */
@Entity()
export class Attachment extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  @Unique()
  path!: string;

  @ManyToOne(() => Article, { nullable: true, deleteRule: 'set null', index: true })
  article: Article | null = null;

  @Property({ type: 'boolean' })
  marked_for_deletion: boolean = false;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;
}

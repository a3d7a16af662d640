import { Entity, Index, ManyToOne, OptionalProps, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { COMMENT_CONTENT_TYPES, type CommentContentType, type ReviewRecommendation } from '../common/enums';
import { UnixTime } from '../common/scalars';
import { valueListType } from '../common/scalars/value-list';
import { now, ReferencedEntity } from '../db/base.entity';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';

export const CommentContentTypeEnum = valueListType('CommentContentType', COMMENT_CONTENT_TYPES);

export interface CommentPreview {
  title: string | null;
  image: string | null;
  slug: string;
}

/**
 * A comment on any commentable item (polymorphic: `content_type` + `content_reference`).
 * `thread_root` lets a whole reply tree load in one query.
 */
@ObjectType({ description: 'A comment (semantics §1.6); hidden comments are served as placeholders.' })
@Entity()
@Index({ properties: ['content_type', 'content_reference', 'depth', 'created'] })
@Index({ properties: ['created'] })
@Index({ properties: ['thread_root', 'created'] })
export class Comment extends ReferencedEntity {
  [OptionalProps]?:
    | 'data_type'
    | 'hidden'
    | 'hidden_by'
    | 'deleted'
    | 'private'
    | 'total_replies'
    | 'vote_score'
    | 'depth'
    | 'parent'
    | 'thread_root'
    | 'review_recommendation'
    | 'review_score'
    | 'created'
    | 'updated';

  @Field(() => String)
  get data_type(): 'comment' {
    return 'comment';
  }

  @Field(() => User, { description: 'The author (a User without is_followed).' })
  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

  @Field(() => CommentContentTypeEnum)
  @Property({ type: 'text' })
  content_type!: CommentContentType;

  @Property({ type: 'uuid' })
  content_reference!: string;

  @ManyToOne({ entity: () => Comment, nullable: true, deleteRule: 'cascade', index: true })
  parent: Comment | null = null;

  /** The top-level comment of the thread (the comment itself at depth 1). */
  @ManyToOne({ entity: () => Comment, nullable: true, deleteRule: 'cascade', index: true })
  thread_root: Comment | null = null;

  /** 1..5 */
  @Field(() => Int)
  @Property({ type: 'smallint' })
  depth: number = 1;

  @Property({ type: 'text' })
  text!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  hidden: boolean = false;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  hidden_by: User | null = null;

  @Property({ type: 'boolean' })
  deleted: boolean = false;

  /** Set while the comment belongs to a private collection (or a deleted article). */
  @Property({ type: 'boolean' })
  private: boolean = false;

  @Field(() => Int, { description: 'Non-hidden, non-deleted descendants.' })
  @Property({ type: 'integer' })
  total_replies: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  vote_score: number = 0;

  /** Present when the comment carries a review. */
  @Property({ type: 'text', nullable: true })
  review_recommendation: ReviewRecommendation | null = null;

  /** The author's list score for the content when the review was written. */
  @Property({ type: 'smallint', nullable: true })
  review_score: number | null = null;

  @Property({ type: 'json' })
  preview!: CommentPreview;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

/** An earlier text of an edited comment. */
@Entity()
export class CommentVersion extends ReferencedEntity {
  @ManyToOne(() => Comment, { deleteRule: 'cascade', index: true })
  comment!: Comment;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const commentEntitySqlForms: readonly SqlForm[] = [
  sqlFields(Comment, { data_type: sqlValue(() => `'comment'`) }),
];

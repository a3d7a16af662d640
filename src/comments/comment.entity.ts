import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import type { CommentContentType, ReviewRecommendation } from '../common/enums';
import { now, ReferencedEntity } from '../db/base.entity';

export interface CommentPreview {
  title: string | null;
  image: string | null;
  slug: string;
}

/**
 * A comment on any commentable item (polymorphic: `content_type` + `content_reference`).
 * `thread_root` lets a whole reply tree load in one query.
 */
@Entity()
@Index({ properties: ['content_type', 'content_reference', 'depth', 'created'] })
@Index({ properties: ['created'] })
@Index({ properties: ['thread_root', 'created'] })
export class Comment extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

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
  @Property({ type: 'smallint' })
  depth: number = 1;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'boolean' })
  hidden: boolean = false;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  hidden_by: User | null = null;

  @Property({ type: 'boolean' })
  deleted: boolean = false;

  /** Set while the comment belongs to a private collection (or a deleted article). */
  @Property({ type: 'boolean' })
  private: boolean = false;

  @Property({ type: 'integer' })
  total_replies: number = 0;

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

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

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

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
import { User } from '../accounts/user.entity';
import type { ArticleCategory, TitleContentType } from '../common/enums';
import { now, ReferencedEntity } from '../db/base.entity';

/** An article; `document` is stored exactly as last saved. */
@Entity()
@Index({ properties: ['category', 'draft', 'created'] })
export class Article extends ReferencedEntity {
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  category!: ArticleCategory;

  @Property({ type: 'boolean' })
  draft: boolean = true;

  @Property({ type: 'boolean' })
  trusted: boolean = false;

  @Property({ type: 'json' })
  document!: unknown[];

  @Property({ type: 'json' })
  preview!: unknown[];

  @Property({ type: 'text', nullable: true })
  content_type: TitleContentType | null = null;

  @Property({ type: 'uuid', nullable: true })
  content_reference: string | null = null;

  @Property({ type: 'integer' })
  vote_score: number = 0;

  @Property({ type: 'integer' })
  views: number = 0;

  @Property({ type: 'integer' })
  comments_count: number = 0;

  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @OneToMany(() => ArticleTag, (link) => link.article, { orderBy: { position: 'asc' } })
  tags = new Collection<ArticleTag>(this);

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

@Entity()
export class Tag extends ReferencedEntity {
  @Property({ type: 'text' })
  @Unique()
  name!: string;

  /** Non-deleted articles (drafts included) carrying the tag. */
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

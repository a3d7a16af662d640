import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import { now } from '../db/base.entity';

type EditContentType = 'anime' | 'manga' | 'novel' | 'person' | 'character';
type EditStatus = 'pending' | 'accepted' | 'denied' | 'closed';

/**
 * A proposed change to a catalog item. The specification has no endpoint that
 * creates edits; they exist so that comments, notifications and look-ups that
 * name an edit (by its decimal number) have something to point to.
 */
@Entity()
@Index({ properties: ['content_type', 'content_reference'] })
export class Edit {
  /** The public edit number. */
  @PrimaryKey({ type: 'integer', autoincrement: true })
  edit_id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  moderator: User | null = null;

  @Property({ type: 'text' })
  content_type!: EditContentType;

  @Property({ type: 'uuid' })
  content_reference!: string;

  @Property({ type: 'text' })
  status: EditStatus = 'pending';

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'json' })
  before: Record<string, unknown> = {};

  @Property({ type: 'json' })
  after: Record<string, unknown> = {};

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

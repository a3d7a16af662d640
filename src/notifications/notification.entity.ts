import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import type { NotificationType } from '../common/enums';
import { now, ReferencedEntity } from '../db/base.entity';

@Entity()
@Index({ properties: ['user', 'created'] })
@Index({ properties: ['user', 'seen'] })
export class Notification extends ReferencedEntity {
  /** The recipient. */
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  initiator_user: User | null = null;

  @Property({ type: 'text' })
  notification_type!: NotificationType;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  /** Identifies the causing event, so that one event never notifies a recipient twice. */
  @Property({ type: 'text', nullable: true })
  @Index()
  event_key: string | null = null;

  /** The item the event concerns (a voted comment, collection or article), for the vote anti-spam rule. */
  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  @Property({ type: 'boolean' })
  seen: boolean = false;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

/** Named cursors of background jobs (e.g. the last processed airing time). */
@Entity()
export class JobCursor {
  @PrimaryKey({ type: 'text' })
  name!: string;

  @Property({ type: 'datetime' })
  position!: Date;
}

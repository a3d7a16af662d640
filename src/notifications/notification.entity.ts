import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import type { NotificationType } from '../common/enums';
import { JSONObjectScalar, NotificationTypeEnum, UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';

/**
 * One notification of one user (semantics §1.6, §4). Created only by `notify()`, in
 * the transaction of its cause; the recipient (`user`) is not exposed.
 */
@ObjectType({ description: 'A notification of the caller (semantics §4).' })
@Entity()
@Index({ properties: ['user', 'created'] })
@Index({ properties: ['user', 'seen'] })
export class Notification extends ReferencedEntity {
  /** The recipient. */
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  /** Who caused it; null for system events and non-positive votes (served by NotificationResolver). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  initiator_user: User | null = null;

  @Field(() => NotificationTypeEnum)
  @Property({ type: 'text' })
  notification_type!: NotificationType;

  @Field(() => JSONObjectScalar, { description: 'The payload of the notification type (semantics §4).' })
  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  /** Identifies the causing event, so that one event never notifies a recipient twice. */
  @Property({ type: 'text', nullable: true })
  @Index()
  event_key: string | null = null;

  /**
   * The anti-spam key of votes and follows (semantics §4): the user who caused the
   * event and, for votes, the voted item. Kept even when the initiator is not shown
   * (a non-positive vote), so the 6-hour window holds for every vote.
   */
  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  seen: boolean = false;

  @Field(() => UnixTime)
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

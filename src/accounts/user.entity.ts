import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { NotificationType, Role } from '../common/enums';
import { ImageUrl, RoleEnum, UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';
import { TrigramIndex } from '../db/trigram-index';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';

const ACTIVE_WINDOW_MS = 10 * 60 * 1000;

/**
 * An account. Only the public profile is exposed to GraphQL; credentials,
 * moderation state and activation data stay server-side.
 */
@ObjectType()
@Entity()
@Index({
  name: 'user_username_lower_unique',
  expression: 'create unique index "user_username_lower_unique" on "user" (lower("username"))',
})
@Index({
  name: 'user_email_lower_unique',
  expression: 'create unique index "user_email_lower_unique" on "user" (lower("email"))',
})
// For the username search of POST /user/list (pages.md "Catalogs").
@TrigramIndex('username')
export class User extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  username!: string;

  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'boolean' })
  email_confirmed: boolean = false;

  /** argon2id (or an imported bcrypt) hash; never the password. */
  @Property({ type: 'text', hidden: true })
  password_hash!: string;

  @Field(() => RoleEnum)
  @Property({ type: 'text' })
  role: Role = 'not_activated';

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'text', nullable: true })
  avatar_path: string | null = null;

  @Field(() => ImageUrl, { nullable: true })
  @Property({ type: 'text', nullable: true })
  cover: string | null = null;

  @Field(() => ImageUrl, { name: 'avatar' })
  get avatarOrDefault(): string {
    return this.avatar_path ?? '/avatar.jpg';
  }

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  /** Time of the last watch/read list change (the contract's User `updated`). */
  @Field(() => UnixTime, { name: 'updated', nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lists_updated: Date | null = null;

  @Property({ type: 'datetime', onCreate: now })
  last_active!: Date;

  @Field(() => Boolean)
  get active(): boolean {
    return this.last_active.getTime() + ACTIVE_WINDOW_MS > Date.now();
  }

  /** SHA-256 of the pending activation token; null when none is pending. */
  @Property({ type: 'text', nullable: true, hidden: true })
  @Index()
  activation_token_hash: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  activation_expires: Date | null = null;

  @Property({ type: 'boolean' })
  banned: boolean = false;

  /** Permissions withheld from this account (semantics §1.3). */
  @Property({ type: 'text[]' })
  forbidden_actions: string[] = [];

  @Property({ type: 'text[]' })
  ignored_notifications: NotificationType[] = [];

  /** An address the user changed to and has not confirmed yet; activation makes it the email. */
  @Property({ type: 'text', nullable: true, hidden: true })
  pending_email: string | null = null;

  /** The last username change (PUT /settings/username allows one an hour). */
  @Property({ type: 'datetime', nullable: true })
  username_changed: Date | null = null;

  /** The last email change (PUT /settings/email allows one a day). */
  @Property({ type: 'datetime', nullable: true })
  email_changed: Date | null = null;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const userEntitySqlForms: readonly SqlForm[] = [
  // The getters in SQL (src/graphql/sql-plan); `active` against the request's time.
  sqlFields(User, {
    avatar: sqlValue((user) => `coalesce(${user}.avatar_path, '/avatar.jpg')`),
    active: sqlValue(
      (user, request) => `${user}.last_active + interval '${ACTIVE_WINDOW_MS} milliseconds' > ${request.now}`,
    ),
  }),
];

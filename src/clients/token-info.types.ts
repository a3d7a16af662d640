import { Field, ObjectType } from 'type-graphql';
import { PagedType } from '../common/pagination/pagination';
import { UnixTime } from '../common/scalars';
import type { Client } from './client.entity';

/**
 * A token as GET /auth/token/info and GET /auth/token/thirdparty show it (semantics
 * §3.1). The values are AuthToken rows: this type names the fields they expose
 * (never the secret's hash); `client` is a field resolver (tokens.resolver.ts).
 */
@ObjectType({
  description: 'A token without its secret: `client` is null and `scope` empty for first-party ones.',
})
export class TokenInfo {
  @Field(() => String)
  reference!: string;

  @Field(() => UnixTime)
  created!: Date;

  client!: Client | null;

  @Field(() => [String], { description: 'The scopes and groups granted, as requested (duplicates removed).' })
  scope!: string[];

  @Field(() => UnixTime, { description: 'Slides to 30 days after each use (semantics §1.2).' })
  expiration!: Date;

  @Field(() => UnixTime, { nullable: true, description: 'The last recorded use.' })
  used!: Date | null;
}

@ObjectType()
export class TokenInfoPage extends PagedType(TokenInfo) {}

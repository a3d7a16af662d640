import { Field, ObjectType } from 'type-graphql';

/** The answer of the follow endpoints: `{"follow": boolean}` (semantics §3.9). */
@ObjectType()
export class FollowState {
  @Field(() => Boolean, { description: 'Whether the caller follows the user (after the call).' })
  follow!: boolean;

  constructor(follow: boolean) {
    this.follow = follow;
  }
}

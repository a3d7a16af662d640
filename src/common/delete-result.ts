import { Field, ObjectType } from 'type-graphql';

/** The answer of a deletion: `{"success": true}` (semantics §3). */
@ObjectType()
export class DeleteResult {
  @Field(() => Boolean)
  success: boolean = true;
}

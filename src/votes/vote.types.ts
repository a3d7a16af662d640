import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { VOTE_CONTENT_TYPES } from '../common/enums';
import { IntegerInput } from '../common/scalars';
import { valueListType } from '../common/scalars/value-list';
import { registerInputSpec } from '../common/validation/input-specs';
import type { ObjectSpec } from '../common/validation/json-schema';
import { integerField } from '../common/validation/schemas';

export const VoteContentTypeEnum = valueListType('VoteContentType', VOTE_CONTENT_TYPES);

/** PUT /vote/{content_type}/{slug} body (semantics §3.6). */
export const VOTE_BODY: ObjectSpec = {
  properties: { score: integerField({ minimum: -1, maximum: 1 }) },
  required: ['score'],
};

@InputType({ description: 'A vote: −1, 0 or 1.' })
export class VoteInput {
  @Field(() => IntegerInput)
  score!: number;
}
registerInputSpec(VoteInput, VOTE_BODY);

@ObjectType({ description: "The caller's vote." })
export class VoteResult {
  @Field(() => Int)
  score!: number;

  constructor(score: number) {
    this.score = score;
  }
}

import { Field, InputType } from 'type-graphql';
import { READ_CONTENT_TYPES, READ_STATUSES, type ReadStatus } from '../common/enums';
import { IntegerInput, ReadStatusEnum } from '../common/scalars';
import { valueListType } from '../common/scalars/value-list';
import { registerInputSpec } from '../common/validation/input-specs';
import type { ObjectSpec } from '../common/validation/json-schema';
import { enumValue } from '../common/validation/schemas';
import {
  countField,
  datesInOrder,
  inputTimeField,
  ListEntryInputFields,
  noteField,
  scoreField,
} from './list-entry.types';

/** `manga` or `novel`: the titles a read entry can be about. */
export const ReadContentTypeEnum = valueListType('ReadContentType', READ_CONTENT_TYPES);

/**
 * PUT /read/{content_type}/{slug} body, fields in the spec's order (§3.4). Chapter and
 * volume totals are not checked; the date rules are those of watch entries.
 */
export const READ_ENTRY_BODY: ObjectSpec = {
  properties: {
    status: enumValue(READ_STATUSES),
    note: noteField,
    chapters: countField(10000),
    volumes: countField(10000),
    rereads: countField(100),
    score: scoreField,
    start_date: inputTimeField,
    end_date: inputTimeField,
  },
  required: ['status'],
  whole: datesInOrder,
};

/** The body of a read entry write; the registered JSON Schema carries the rules (see WatchEntryInput). */
@InputType({
  description:
    'A read entry as saved: omitted fields take their defaults, omitted dates keep the stored ones (§3.4).',
})
export class ReadEntryInput extends ListEntryInputFields {
  @Field(() => ReadStatusEnum)
  status!: ReadStatus;

  @Field(() => IntegerInput, { nullable: true, description: '0..10000, default 0.' })
  chapters?: number;

  @Field(() => IntegerInput, { nullable: true, description: '0..10000, default 0.' })
  volumes?: number;

  @Field(() => IntegerInput, { nullable: true, description: '0..100, default 0.' })
  rereads?: number;
}
registerInputSpec(ReadEntryInput, READ_ENTRY_BODY);

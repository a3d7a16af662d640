import { JSONObjectScalar } from '../common/scalars';
import { Field, InputType } from 'type-graphql';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema } from '../common/validation/json-schema';
import { booleanField, enumValue, integerField } from '../common/validation/schemas';

/*
 * The list imports of the settings pages (pages.md "Settings"): records of a MAL list
 * export, as the frontend forwards them. Unknown keys inside a record are ignored (the
 * frontend sends whole parsed records; decision 4); the request's top level stays closed.
 */

/** MAL's watch statuses, as this service names them. */
export const MAL_WATCH_STATUSES = {
  Completed: 'completed',
  Watching: 'watching',
  'Plan to Watch': 'planned',
  'On-Hold': 'on_hold',
  Dropped: 'dropped',
} as const;

/** MAL's read statuses, as this service names them. */
export const MAL_READ_STATUSES = {
  Completed: 'completed',
  Reading: 'reading',
  'Plan to Read': 'planned',
  'On-Hold': 'on_hold',
  Dropped: 'dropped',
} as const;

/** A note: text, or an object (an empty XML element) meaning none. */
const commentsField: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'object' }] };

/** A record of a list export: an open object whose listed fields follow their rules. */
const record = (properties: Record<string, JsonSchema>, required: readonly string[]): JsonSchema => ({
  type: 'object',
  properties,
  required: [...required],
});

/** One anime of a MAL export. */
const WATCH_RECORD = record(
  {
    series_animedb_id: integerField({ minimum: 0, maximum: 1_000_000 }),
    my_watched_episodes: integerField({ minimum: 0, maximum: 10000 }),
    my_times_watched: integerField({ minimum: 0 }),
    my_score: integerField({ minimum: 0, maximum: 10 }),
    my_status: enumValue(Object.keys(MAL_WATCH_STATUSES)),
    my_comments: commentsField,
  },
  ['series_animedb_id', 'my_watched_episodes', 'my_status', 'my_comments'],
);

/** One manga or novel of a MAL export; `my_times_watched` stands for `my_times_read`. */
const READ_RECORD: JsonSchema = {
  ...record(
    {
      manga_mangadb_id: integerField({ minimum: 0, maximum: 1_000_000 }),
      my_read_chapters: integerField({ minimum: 0 }),
      my_read_volumes: integerField({ minimum: 0 }),
      my_score: integerField({ minimum: 0, maximum: 10 }),
      my_status: enumValue(Object.keys(MAL_READ_STATUSES)),
      my_comments: commentsField,
      my_times_read: integerField({ minimum: 0 }),
      my_times_watched: integerField({ minimum: 0 }),
    },
    ['manga_mangadb_id', 'my_read_chapters', 'my_read_volumes', 'my_score', 'my_status', 'my_comments'],
  ),
  anyOf: ['my_times_read', 'my_times_watched'].map((name) => ({
    type: 'object',
    properties: { [name]: {} },
    required: [name],
  })),
};

@InputType({ description: 'POST /settings/import/watch: MAL export records of anime.' })
export class WatchImportInput {
  @Field(() => Boolean, { description: 'Whether an imported record replaces an existing entry.' })
  overwrite!: boolean;

  @Field(() => [JSONObjectScalar], {
    description:
      'Records with series_animedb_id, my_watched_episodes, my_times_watched, my_score, my_status, my_comments; other keys are ignored.',
  })
  anime!: Record<string, unknown>[];
}
export const WATCH_IMPORT_SPEC = registerInputSpec(WatchImportInput, {
  properties: { overwrite: booleanField, anime: { type: 'array', items: WATCH_RECORD } },
  required: ['overwrite', 'anime'],
});

@InputType({ description: 'POST /settings/import/read: MAL export records of manga and novels.' })
export class ReadImportInput {
  @Field(() => Boolean, { description: 'Whether an imported record replaces an existing entry.' })
  overwrite!: boolean;

  @Field(() => [JSONObjectScalar], {
    description:
      'Records with manga_mangadb_id, my_read_chapters, my_read_volumes, my_score, my_status, my_comments, my_times_read; other keys are ignored.',
  })
  content!: Record<string, unknown>[];
}
export const READ_IMPORT_SPEC = registerInputSpec(ReadImportInput, {
  properties: { overwrite: booleanField, content: { type: 'array', items: READ_RECORD } },
  required: ['overwrite', 'content'],
});

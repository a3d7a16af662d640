import { Field, InputType } from 'type-graphql';
import { registerInputSpec } from './validation/input-specs';
import { nullableText } from './validation/schemas';

/** The body of POST /characters and POST /people (pages.md "Catalogs"): an optional name query. */
@InputType('NameSearchInput', { description: 'A typo-tolerant name query, or none for the whole list.' })
export class NameSearchInput {
  @Field(() => String, { nullable: true, description: 'Typo-tolerant name search, 2..255 characters.' })
  query?: string | null;
}

export const NAME_SEARCH_SPEC = registerInputSpec(NameSearchInput, {
  properties: { query: nullableText(2, 255) },
});

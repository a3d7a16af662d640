import { type Fragment, fragment } from '../rest/fragments';

/** The people's contract resources (src/rest/fragments.ts). */
export const peopleFragments: readonly Fragment[] = [
  /** Contract Person fields. */
  fragment(
    'PersonFields',
    'Person',
    '{ data_type name_native name_ua name_en image slug description_ua synonyms }',
  ),
];

import { type Fragment, fragment } from '../rest/fragments';

/** The characters' contract resources (src/rest/fragments.ts). */
export const characterFragments: readonly Fragment[] = [
  /** Contract Character fields. */
  fragment('CharacterFields', 'Character', '{ data_type name_ua name_en name_ja image slug synonyms }'),
];

import { type Fragment, fragment } from '../rest/fragments';

/** Contract Character fields, for selections on types that extend Character (a favourite character). */
export const CHARACTER_FIELDS = 'data_type name_ua name_en name_ja image slug synonyms';

/** The characters' contract resources (src/rest/fragments.ts). */
export const characterFragments: readonly Fragment[] = [
  /** Contract Character fields. */
  fragment('CharacterFields', 'Character', `{ ${CHARACTER_FIELDS} }`),
];

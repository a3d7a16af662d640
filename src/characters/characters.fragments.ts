import { fragment } from '../rest/fragments';

/** Contract Character fields. */
export const CharacterFields = fragment(
  'CharacterFields',
  'Character',
  '{ data_type name_ua name_en name_ja image slug synonyms }',
);

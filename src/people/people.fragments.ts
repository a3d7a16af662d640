import { fragment } from '../rest/fragments';

/** Contract Person fields. */
export const PersonFields = fragment(
  'PersonFields',
  'Person',
  '{ data_type name_native name_ua name_en image slug description_ua synonyms }',
);

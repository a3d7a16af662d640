import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261122010630_native_scores } from './Migration20261122010630_native_scores';
import { Migration20261122013337_notification_subject } from './Migration20261122013337_notification_subject';
import { Migration20261125160000_nsfw_genre_flag } from './Migration20261125160000_nsfw_genre_flag';
import { Migration20261128000500_sealed_client_secrets } from './Migration20261128000500_sealed_client_secrets';
import { Migration20261128120000_unserializable_value } from './Migration20261128120000_unserializable_value';
import { Migration20261129000000_title_search_version } from './Migration20261129000000_title_search_version';
import { Migration20261129150000_native_score_baseline_shards } from './Migration20261129150000_native_score_baseline_shards';
import { Migration20261129190000_native_score_inline } from './Migration20261129190000_native_score_inline';
import { Migration20261208003050_favourites } from './Migration20261208003050_favourites';
import { Migration20261208005937_name_search } from './Migration20261208005937_name_search';
import { Migration20261208010922_account_changes } from './Migration20261208010922_account_changes';

/** Every committed migration, in order; `npm run migration:create` writes new ones to add here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122010630_native_scores', class: Migration20261122010630_native_scores },
  {
    name: 'Migration20261122013337_notification_subject',
    class: Migration20261122013337_notification_subject,
  },
  { name: 'Migration20261125160000_nsfw_genre_flag', class: Migration20261125160000_nsfw_genre_flag },
  {
    name: 'Migration20261128000500_sealed_client_secrets',
    class: Migration20261128000500_sealed_client_secrets,
  },
  {
    name: 'Migration20261128120000_unserializable_value',
    class: Migration20261128120000_unserializable_value,
  },
  {
    name: 'Migration20261129000000_title_search_version',
    class: Migration20261129000000_title_search_version,
  },
  {
    name: 'Migration20261129150000_native_score_baseline_shards',
    class: Migration20261129150000_native_score_baseline_shards,
  },
  {
    name: 'Migration20261129190000_native_score_inline',
    class: Migration20261129190000_native_score_inline,
  },
  { name: 'Migration20261208003050_favourites', class: Migration20261208003050_favourites },
  { name: 'Migration20261208005937_name_search', class: Migration20261208005937_name_search },
  { name: 'Migration20261208010922_account_changes', class: Migration20261208010922_account_changes },
];

import type { MikroORM } from '@mikro-orm/postgresql';
import { ActionRecord } from './accounts/action-record.entity';
import { AuthToken } from './accounts/auth-token.entity';
import { Follow } from './accounts/follow.entity';
import { User } from './accounts/user.entity';
import { Article, ArticleTag, Attachment, Tag } from './articles/article.entity';
import { AiringEpisode, Anime } from './catalog/anime.entity';
import { CatalogTitle } from './catalog/catalog-title.entity';
import { AnimeCompany, Company } from './catalog/company.entity';
import { Genre } from './catalog/genre.entity';
import { Magazine } from './catalog/magazine.entity';
import { Manga } from './catalog/manga.entity';
import { Novel } from './catalog/novel.entity';
import { ReadableTitle } from './catalog/readable-title.entity';
import { Appearance } from './characters/appearance.entity';
import { Character } from './characters/character.entity';
import { Client } from './clients/client.entity';
import type { ClientSecretBox } from './clients/client-secret-box';
import { sealStoredClientSecrets } from './clients/seal-stored-secrets';
import { TokenRequest } from './clients/token-request.entity';
import { Collection, CollectionItem } from './collections/collection.entity';
import { Comment, CommentVersion } from './comments/comment.entity';
import { Edit } from './edits/edit.entity';
import { Franchise } from './franchises/franchise.entity';
import { ListEntry } from './lists/list-entry.entity';
import { NativeScoreBaseline } from './lists/native-score.entity';
import { TitleSearchVersion } from './catalog/title-search-version.entity';
import { ReadEntry } from './lists/read-entry.entity';
import { WatchEntry } from './lists/watch-entry.entity';
import { JobCursor, Notification } from './notifications/notification.entity';
import { Credit } from './people/credit.entity';
import { Person } from './people/person.entity';
import { Role } from './people/role.entity';
import { Vote } from './votes/vote.entity';
import { Favourite } from './favourites/favourite.entity';
import { ReferencedEntity } from './db/base.entity';
import { initOrm } from './db/database';
import { ormOptions, type OrmOptionsInput } from './db/orm-options';

/*
 * The ORM over every domain's entities: composed here, above the domains, so that src/db
 * (the driver, pools, migrations, SQL helpers) knows no domain.
 */

/** Every entity of the model, in one list for the ORM (base classes included for metadata). */
export const entities = [
  ReferencedEntity,
  CatalogTitle,
  ReadableTitle,
  ListEntry,
  Genre,
  Magazine,
  Company,
  AnimeCompany,
  Anime,
  AiringEpisode,
  Manga,
  Novel,
  Person,
  Role,
  Credit,
  Character,
  Appearance,
  Franchise,
  User,
  AuthToken,
  ActionRecord,
  Follow,
  Client,
  TokenRequest,
  WatchEntry,
  ReadEntry,
  Comment,
  CommentVersion,
  Vote,
  Favourite,
  Collection,
  CollectionItem,
  Article,
  Tag,
  ArticleTag,
  Attachment,
  Notification,
  JobCursor,
  Edit,
  NativeScoreBaseline,
  TitleSearchVersion,
];

/** The ORM on `url` with every entity (the service, the CLI commands, scripts and tests). */
export function createOrm(url: string, extra: Omit<OrmOptionsInput, 'clientUrl' | 'entities'> = {}) {
  return initOrm(ormOptions({ clientUrl: url, entities, ...extra }));
}

export interface MigrationReport {
  /** The committed migrations applied, by name. */
  migrations: string[];
  /** Client secrets sealed (plaintext before) or re-sealed under the first key (rotation). */
  sealedClientSecrets: number;
}

/**
 * Applies every pending committed migration, then the data step that needs the
 * service's key: stored client secrets sealed, or re-sealed under the first key
 * (src/clients/seal-stored-secrets.ts); it refuses keys the box lacks.
 */
export async function migrate(orm: MikroORM, clientSecrets: ClientSecretBox): Promise<MigrationReport> {
  const applied = await orm.migrator.up();
  return {
    migrations: applied.map((migration) => migration.name),
    sealedClientSecrets: await sealStoredClientSecrets(orm, clientSecrets),
  };
}

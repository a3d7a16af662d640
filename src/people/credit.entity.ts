import { Check, Collection, Entity, ManyToMany, ManyToOne, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import type { Anime } from '../catalog/anime.entity';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import { ReferencedEntity } from '../db/base.entity';
import { Person } from './person.entity';
import { Role } from './role.entity';

/**
 * A person's part in one title: anime staff, or the author of a manga or novel.
 * Exactly one of the three title links is set.
 */
@ObjectType('Author')
@Entity()
@Check({
  name: 'credit_one_title',
  expression: 'num_nonnulls(anime_reference, manga_reference, novel_reference) = 1',
})
@Unique({ properties: ['person', 'anime'] })
@Unique({ properties: ['person', 'manga'] })
@Unique({ properties: ['person', 'novel'] })
export class Credit extends ReferencedEntity {
  @ManyToOne(() => Person, { deleteRule: 'cascade', index: true })
  person!: Person;

  @ManyToOne({ entity: 'Anime', nullable: true, deleteRule: 'cascade', index: true })
  anime: Anime | null = null;

  @ManyToOne({ entity: 'Manga', nullable: true, deleteRule: 'cascade', index: true })
  manga: Manga | null = null;

  @ManyToOne({ entity: 'Novel', nullable: true, deleteRule: 'cascade', index: true })
  novel: Novel | null = null;

  @ManyToMany(() => Role)
  roles = new Collection<Role>(this);
}

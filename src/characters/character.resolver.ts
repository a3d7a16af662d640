import { Arg, Args, Ctx, FieldResolver, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { type LinkedNameSearch, linkedNameSearchQuery } from '../catalog/linked-name-search';
import { NameSearchInput } from '../common/name-search.inputs';
import { listPage } from '../common/pagination/paged-query';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { LiveTitleCountFields, liveTitleCountsSql, type TitleLinks } from '../catalog/title-link-counts';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { findCharacterBySlug } from './character-titles.service';
import { Character } from './character.entity';
import { liveAppearanceSql } from './characters.service';

const APPEARANCES: TitleLinks = { table: 'appearance', of: 'character' };

/** POST /characters: names and synonyms searched; orphans (no live appearance) left out (§1.8). */
const CHARACTER_SEARCH: LinkedNameSearch = {
  links: APPEARANCES,
  names: { texts: ['p.name_ua', 'p.name_en', 'p.name_ja'], synonyms: 'p.synonyms' },
  linkedOnly: true,
};

@ObjectType()
export class CharacterPage extends PagedType(Character) {}

/** A character's page: the look-up and the counts of its full record. */
@Resolver(() => Character)
export class CharacterResolver extends LiveTitleCountFields(Character, APPEARANCES, 'Appearances in') {
  /** GET /characters/{slug}: no authentication. */
  @Query(() => Character, { description: 'GET /characters/{slug}: a character’s full record.' })
  character(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Character> {
    return findCharacterBySlug(ctx.em, slug);
  }

  /** POST /characters: no authentication. */
  @Query(() => CharacterPage, {
    description:
      'POST /characters: characters by a typo-tolerant name query, or those in the most titles first.',
  })
  characters(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => NameSearchInput, { nullable: true }) input: NameSearchInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<CharacterPage> {
    return listPage(ctx.em, Character, linkedNameSearchQuery(CHARACTER_SEARCH, input?.query), page);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Always null: the service stores no description.',
  })
  description_ua(): null {
    return null;
  }

  @FieldResolver(() => Int, { description: 'Voice actors: always 0, the service stores no voice acting.' })
  voices_count(): number {
    return 0;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const characterSqlForms: readonly SqlForm[] = [
  // findCharacterBySlug: the module slug, orphans not found.
  sqlRoot('character', {
    kind: 'one',
    type: Character,
    rows: (character, { slug }) => ({
      from: `character ${character}`,
      where: `${character}.slug = ${slug} and ${liveAppearanceSql(`${character}.reference`)}`,
    }),
    values: ({ slug }) => ({ slug: String(slug).toLowerCase() }),
    notFound: 'character:not_found',
  }),
  sqlRoot('characters', {
    kind: 'page',
    item: Character,
    query: async (_ctx, args) =>
      linkedNameSearchQuery(CHARACTER_SEARCH, (args.input as NameSearchInput | null)?.query),
  }),
  sqlFields(Character, {
    ...liveTitleCountsSql(APPEARANCES),
    description_ua: sqlValue(() => 'null::text'),
    voices_count: sqlValue(() => '0', 'integer'),
  }),
];

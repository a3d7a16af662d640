import { Arg, Ctx, FieldResolver, Int, Query, Resolver } from 'type-graphql';
import { LiveTitleCountFields, liveTitleCountsSql, type TitleLinks } from '../catalog/title-link-counts';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { findCharacterBySlug } from './character-titles.service';
import { Character } from './character.entity';
import { liveAppearanceSql } from './characters.service';

const APPEARANCES: TitleLinks = { table: 'appearance', of: 'character' };

/** A character's page: the look-up and the counts of its full record. */
@Resolver(() => Character)
export class CharacterResolver extends LiveTitleCountFields(Character, APPEARANCES, 'Appearances in') {
  /** GET /characters/{slug}: no authentication. */
  @Query(() => Character, { description: 'GET /characters/{slug}: a character’s full record.' })
  character(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Character> {
    return findCharacterBySlug(ctx.em, slug);
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
  sqlFields(Character, {
    ...liveTitleCountsSql(APPEARANCES),
    description_ua: sqlValue(() => 'null::text'),
    voices_count: sqlValue(() => '0', 'integer'),
  }),
];

import DataLoader from 'dataloader';
import { type ClassType, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { TITLE_CONTENT_TYPES, type TitleContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlValue, type SqlField } from '../graphql/sql-plan/fields';

/**
 * Rows that link something to one title each, through `anime_reference`,
 * `manga_reference` and `novel_reference` (a person's credits, a character's
 * appearances): the table and the column naming what they link.
 */
export interface TitleLinks {
  table: 'credit' | 'appearance';
  /** The linked things' table. */
  of: 'person' | 'character';
}

export type TitleCounts = Record<`${TitleContentType}_count`, number>;

/** The count of `links` rows of `parent` (SQL) on live titles of `kind`. */
const liveCountSql = ({ table, of }: TitleLinks, kind: TitleContentType, parent: string): string =>
  `(select count(*)::int from ${table} l join ${kind} t on t.reference = l.${kind}_reference
     where l.${of}_reference = ${parent} and not t.deleted)`;

/**
 * The counts of live anime, manga and novels each parent is linked to, deleted titles
 * not counted (as everywhere); one statement per request and kind of link.
 */
export function liveTitleCounts(ctx: RequestContext, links: TitleLinks): DataLoader<string, TitleCounts> {
  return ctx.loader(
    `${links.table}:title-counts`,
    () =>
      new DataLoader<string, TitleCounts>(async (parents) => {
        const rows = await ctx.em.execute<(TitleCounts & { parent: string })[]>(
          `select p.reference as parent,
             ${TITLE_CONTENT_TYPES.map((kind) => `${liveCountSql(links, kind, 'p.reference')} as ${kind}_count`).join(', ')}
             from ${links.of} p where p.reference in (?)`,
          [[...parents]],
        );
        const byParent = new Map(rows.map(({ parent, ...counts }) => [parent, counts]));
        return parents.map((parent) => byParent.get(parent)!);
      }),
  );
}

/** The SQL forms of the three counts, on the type whose rows are the parents. */
export const liveTitleCountsSql = (links: TitleLinks): Record<`${TitleContentType}_count`, SqlField> => ({
  anime_count: sqlValue((parent) => liveCountSql(links, 'anime', `${parent}.reference`), 'integer'),
  manga_count: sqlValue((parent) => liveCountSql(links, 'manga', `${parent}.reference`), 'integer'),
  novel_count: sqlValue((parent) => liveCountSql(links, 'novel', `${parent}.reference`), 'integer'),
});

/**
 * The three counts as fields of `Type` (people, characters), read from {@link liveTitleCounts};
 * `linked` says what is counted ("Credits on", "Appearances in").
 */
export function LiveTitleCountFields<T extends { reference: string }>(
  Type: ClassType<T>,
  links: TitleLinks,
  linked: string,
) {
  @Resolver(() => Type)
  abstract class LiveTitleCountResolver {
    @FieldResolver(() => Int, { description: `${linked} anime (deleted ones not counted).` })
    async anime_count(@Root() row: T, @Ctx() ctx: RequestContext): Promise<number> {
      return (await liveTitleCounts(ctx, links).load(row.reference)).anime_count;
    }

    @FieldResolver(() => Int, { description: `${linked} manga (deleted ones not counted).` })
    async manga_count(@Root() row: T, @Ctx() ctx: RequestContext): Promise<number> {
      return (await liveTitleCounts(ctx, links).load(row.reference)).manga_count;
    }

    @FieldResolver(() => Int, { description: `${linked} novels (deleted ones not counted).` })
    async novel_count(@Root() row: T, @Ctx() ctx: RequestContext): Promise<number> {
      return (await liveTitleCounts(ctx, links).load(row.reference)).novel_count;
    }
  }
  return LiveTitleCountResolver;
}

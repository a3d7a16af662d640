import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { ReadContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { viewerReadEntries } from '../lists/list.loaders';
import { ReadEntry } from '../lists/read-entry.entity';
import { Credit } from '../people/credit.entity';
import { compareCredits, creditsOfTitle } from '../people/credit.loaders';
import { compareSlugs } from '../people/role.entity';
import type { CatalogTitle } from './catalog-title.entity';
import { Genre } from './genre.entity';
import { Magazine } from './magazine.entity';
import { ExternalLink, type ReadableTitle } from './readable-title.entity';

const bySlug = (a: { slug: string }, b: { slug: string }) => compareSlugs(a.slug, b.slug);

/** Field resolvers every catalog title has. Relations load through MikroORM's batching dataloader. */
export function CatalogTitleFields<T extends CatalogTitle>(Title: ClassType<T>) {
  @Resolver(() => Title)
  abstract class CatalogTitleFieldResolver {
    @FieldResolver(() => [Genre], { description: 'By slug.' })
    async genres(@Root() title: T): Promise<Genre[]> {
      return (await title.genres.load()).getItems().sort(bySlug);
    }
  }
  return CatalogTitleFieldResolver;
}

/** External links as shown: `general` first, then `read` with `Dengeki` first; other types omitted. */
export function displayedExternalLinks(links: readonly ExternalLink[]): ExternalLink[] {
  const general = links.filter((link) => link.type === 'general');
  const read = links.filter((link) => link.type === 'read');
  const dengeki = read.filter((link) => link.text === 'Dengeki');
  return [...general, ...dengeki, ...read.filter((link) => link.text !== 'Dengeki')];
}

/** Field resolvers shared by manga and novels. */
export function ReadableTitleFields<T extends ReadableTitle>(Title: ClassType<T>, kind: ReadContentType) {
  @Resolver(() => Title)
  abstract class ReadableTitleFieldResolver extends CatalogTitleFields(Title) {
    @FieldResolver(() => [ReadEntry], {
      description: "The caller's own read entry (at most one); [] when anonymous.",
    })
    read(@Root() title: T, @Ctx() ctx: RequestContext): Promise<ReadEntry[]> {
      return viewerReadEntries(ctx, kind).load(title.reference);
    }

    @FieldResolver(() => [Magazine], { description: 'By slug.' })
    async magazines(@Root() title: T): Promise<Magazine[]> {
      return (await title.magazines.load()).getItems().sort(bySlug);
    }

    @FieldResolver(() => [Credit], {
      description: 'By highest role weight desc (null weights last), then person slug.',
    })
    async authors(@Root() title: T, @Ctx() ctx: RequestContext): Promise<Credit[]> {
      return (await creditsOfTitle(ctx, kind).load(title.reference)).sort(compareCredits);
    }

    @FieldResolver(() => [ExternalLink])
    external(@Root() title: T): ExternalLink[] {
      return displayedExternalLinks(title.external);
    }
  }
  return ReadableTitleFieldResolver;
}

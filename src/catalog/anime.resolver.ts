import { Resolver } from 'type-graphql';
import { Anime } from './anime.entity';
import { CatalogTitleFields } from './title-fields';

@Resolver(() => Anime)
export class AnimeResolver extends CatalogTitleFields(Anime, 'anime') {}

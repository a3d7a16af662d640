import { Resolver } from 'type-graphql';
import { Novel } from './novel.entity';
import { ReadableTitleFields } from './title-fields';

@Resolver(() => Novel)
export class NovelResolver extends ReadableTitleFields(Novel, 'novel') {}

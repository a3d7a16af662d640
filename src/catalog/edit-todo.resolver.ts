import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { TitleContentType } from '../common/enums';
import { type Page, PageArgs, Pagination } from '../common/pagination/pagination';
import { TitleContentTypeScalar } from '../common/scalars';
import { enumScalar } from '../common/scalars/enum.scalar';
import type { RequestContext } from '../context';
import type { Anime } from './anime.entity';
import { EDIT_TODO_TYPES, editTodo, type EditTodoType } from './edit-todo.service';
import { CatalogItem } from './title-unions';
import type { Manga } from './manga.entity';
import type { Novel } from './novel.entity';

export const EditTodoTypeScalar = enumScalar('EditTodoType', EDIT_TODO_TYPES);

@ObjectType()
export class EditTodoPage implements Page<Anime | Manga | Novel> {
  @Field(() => Pagination)
  pagination!: Pagination;

  @Field(() => [CatalogItem])
  list!: (Anime | Manga | Novel)[];
}

@Resolver()
export class EditTodoResolver {
  /** #6 GET /edit/todo/{content_type}/{todo_type}: optional authentication, scopes read:readlist and read:watchlist. */
  @Query(() => EditTodoPage, {
    description:
      'Catalog items lacking a translation (contract #6): todo_type field null, anime music videos excepted; by score, scored_by, reference desc.',
  })
  async editTodo(
    @Arg('content_type', () => TitleContentTypeScalar) contentType: TitleContentType,
    @Arg('todo_type', () => EditTodoTypeScalar) todoType: EditTodoType,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<EditTodoPage> {
    await ctx.auth.optional(['read:readlist', 'read:watchlist']);
    return editTodo(ctx.em, contentType, todoType, page);
  }
}

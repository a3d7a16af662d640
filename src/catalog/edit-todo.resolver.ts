import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import type { TitleContentType } from '../common/enums';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { TitleContentTypeEnum } from '../common/scalars';
import { valueListType } from '../common/scalars/value-list';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { Anime } from './anime.entity';
import { EDIT_TODO_TYPES, editTodo, editTodoQuery, type EditTodoType } from './edit-todo.service';
import { CatalogItem } from './title-unions';
import { Manga } from './manga.entity';
import { Novel } from './novel.entity';

const SCOPES = ['read:readlist', 'read:watchlist'];

export const EditTodoTypeEnum = valueListType('EditTodoType', EDIT_TODO_TYPES);

@ObjectType()
export class EditTodoPage extends PagedType<Anime | Manga | Novel>(CatalogItem) {}

@Resolver()
export class EditTodoResolver {
  /** #6 GET /edit/todo/{content_type}/{todo_type}: optional authentication, scopes read:readlist and read:watchlist. */
  @Query(() => EditTodoPage, {
    description:
      'Catalog items lacking a translation (contract #6): todo_type field null, anime music videos excepted; by score, scored_by, reference desc.',
  })
  async editTodo(
    @Arg('content_type', () => TitleContentTypeEnum) contentType: TitleContentType,
    @Arg('todo_type', () => EditTodoTypeEnum) todoType: EditTodoType,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<EditTodoPage> {
    await ctx.auth.optional(SCOPES);
    return editTodo(ctx.em, contentType, todoType, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const editTodoSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan), one plan per content type.
  sqlRoot('editTodo', {
    kind: 'page',
    item: { argument: 'content_type', items: { anime: Anime, manga: Manga, novel: Novel } },
    query: async (ctx, args) => {
      await ctx.auth.optional(SCOPES);
      return editTodoQuery(args.content_type as TitleContentType, args.todo_type as EditTodoType);
    },
  }),
];

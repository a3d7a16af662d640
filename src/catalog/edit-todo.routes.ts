import { TITLE_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf } from '../rest/schemas';
import { EDIT_TODO_TYPES } from './edit-todo.service';

export const editTodoRoutes: RestRoute[] = [
  {
    contract: 6,
    method: 'GET',
    path: '/edit/todo/{content_type}/{todo_type}',
    summary: 'Titles missing a Ukrainian title or synopsis',
    description:
      'Anime, manga or novels whose `title_ua` or `synopsis_ua` (the `todo_type`) is empty, best scored first: the to-do list of translators. Anime music videos are left out.',
    auth: 'optional',
    params: { content_type: oneOf(TITLE_CONTENT_TYPES), todo_type: oneOf(EDIT_TODO_TYPES) },
    paged: true,
    rootField: 'editTodo',
    document: `query EditTodo($content_type: TitleContentType!, $todo_type: EditTodoType!, $page: Int, $size: Int) {
        editTodo(content_type: $content_type, todo_type: $todo_type, page: $page, size: $size) {
          pagination { total pages page }
          list {
            ... on Anime { ...AnimeWithWatch }
            ... on Manga { ...MangaWithRead }
            ... on Novel { ...NovelWithRead }
          }
        }
      }`,
  },
];

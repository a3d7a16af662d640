import { Max, Min } from 'class-validator';
import type { ClassType } from 'type-graphql';
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';

export const PAGE_MAX = 10000;
export const SIZE_MAX = 100;
export const SIZE_DEFAULT = 15;

/** `page` (1..10000, default 1) and `size` (1..100, default 15) of every paged list. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 1 })
  @Min(1)
  @Max(PAGE_MAX)
  page: number = 1;

  @Field(() => Int, { defaultValue: SIZE_DEFAULT })
  @Min(1)
  @Max(SIZE_MAX)
  size: number = SIZE_DEFAULT;
}

@ObjectType()
export class Pagination {
  @Field(() => Int, { description: 'Exact number of matching items.' })
  total!: number;

  @Field(() => Int, { description: 'ceil(total / size); 0 when there are no items.' })
  pages!: number;

  @Field(() => Int)
  page!: number;
}

export interface Page<T> {
  pagination: Pagination;
  list: T[];
}

/** SQL offset and limit of a page. */
export function pageWindow({ page, size }: PageArgs): { offset: number; limit: number } {
  return { offset: (page - 1) * size, limit: size };
}

export function toPage<T>(list: T[], total: number, { page, size }: PageArgs): Page<T> {
  return { pagination: { total, pages: Math.ceil(total / size), page }, list };
}

/**
 * Base of the GraphQL type of a page of `Item` (an object type, or a union of them made
 * by `createUnionType`), `{pagination, list}`; subclasses name it.
 */
export function PagedType<T extends object>(Item: ClassType<T> | T): ClassType<Page<T>> {
  @ObjectType()
  class PagedResult implements Page<T> {
    @Field(() => Pagination)
    pagination!: Pagination;

    @Field(() => [Item])
    list!: T[];
  }
  return PagedResult;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { Article } from '../articles/article.entity';
import { findTitle } from '../catalog/catalog.service';
import { Character } from '../characters/character.entity';
import { hasLiveAppearance, liveAppearanceSql } from '../characters/characters.service';
import { Collection } from '../collections/collection.entity';
import type { CommentContentType } from '../common/enums';
import { sql, type SqlFragment } from '../db/sql';
import { Edit } from '../edits/edit.entity';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { Person } from '../people/person.entity';
import type { CommentPreview } from './comment.entity';
import { isUuid } from '../common/validation/uuid';

/** A commentable item found by content type and slug (semantics §1.8). */
export interface CommentContent {
  type: CommentContentType;
  reference: string;
  /** The slug shown in previews and notification data (collection: reference; edit: number). */
  slug: string;
  /** Author of a collection, article or edit (the recipient of top-level comment notifications). */
  owner: string | null;
  /** A private collection: its comments are private. */
  private: boolean;
  preview: CommentPreview;
}

/** Tables holding `comments_count`, by content type (edits have none). */
export const COUNTED_TABLES: Partial<Record<CommentContentType, string>> = {
  anime: 'anime',
  manga: 'manga',
  novel: 'novel',
  person: 'person',
  character: 'character',
  article: 'article',
  collection: 'collection',
};

/**
 * SQL condition (on comment alias `c`) that the commented item is not deleted. Only
 * titles, articles and collections can be deleted.
 */
export const CONTENT_LIVE_SQL = `not (
  (c.content_type = 'anime' and exists (select 1 from anime x where x.reference = c.content_reference and x.deleted)) or
  (c.content_type = 'manga' and exists (select 1 from manga x where x.reference = c.content_reference and x.deleted)) or
  (c.content_type = 'novel' and exists (select 1 from novel x where x.reference = c.content_reference and x.deleted)) or
  (c.content_type = 'article' and exists (select 1 from article x where x.reference = c.content_reference and x.deleted)) or
  (c.content_type = 'collection' and exists (select 1 from collection x where x.reference = c.content_reference and x.deleted))
)`;

/** SQL condition (on comment alias `c`) that the comment belongs to a private collection. */
export const PRIVATE_SQL = `(c.private or (c.content_type = 'collection' and exists (
  select 1 from collection x where x.reference = c.content_reference and x.visibility = 'private')))`;

/**
 * Edits are numbered, while `comment.content_reference` is a UUID column: an edit is
 * stored as the UUID whose last group is its zero-padded number.
 */
const editReference = (editId: number): string =>
  `00000000-0000-0000-0000-${String(editId).padStart(12, '0')}`;

/** An edit's number as a slug: decimal, no leading zero, within the column's range. */
const EDIT_NUMBER = /^[1-9][0-9]{0,8}$/;

const firstOf = (...values: (string | null | undefined)[]): string | null =>
  values.find((value) => value !== null && value !== undefined) ?? null;

/** The image of a catalog item of any kind by reference (edits, collection items). */
async function itemImage(em: EntityManager, type: string, reference: string): Promise<string | null> {
  if (!['anime', 'manga', 'novel', 'person', 'character'].includes(type)) return null;
  const [row] = await em.execute<{ image: string | null }[]>(
    `select image from "${type}" where reference = ?`,
    [reference],
  );
  return row?.image ?? null;
}

/**
 * Look-up by content type and slug (semantics §1.8), with the data a comment on
 * the item needs (preview §6.6, owner, privacy). Null when not found; a private
 * collection is found only by its author.
 */
export async function findCommentContent(
  em: EntityManager,
  type: CommentContentType,
  slug: string,
  viewer: string | null,
): Promise<CommentContent | null> {
  const base = { type, slug, owner: null, private: false };
  switch (type) {
    case 'anime':
    case 'manga':
    case 'novel': {
      const title = await findTitle(em, type, slug, 'comment:content_not_found').catch(() => null);
      if (!title) return null;
      const original = type === 'anime' ? (title as { title_ja: string | null }).title_ja : null;
      const titleOriginal =
        type === 'anime' ? null : (title as { title_original: string | null }).title_original;
      return {
        ...base,
        reference: title.reference,
        preview: {
          title: firstOf(title.title_ua, title.title_en, type === 'anime' ? original : titleOriginal),
          image: title.image,
          slug,
        },
      };
    }
    case 'person': {
      const person = await em.findOne(Person, { slug });
      if (!person) return null;
      return {
        ...base,
        reference: person.reference,
        preview: {
          title: firstOf(person.name_ua, person.name_en, person.name_native),
          image: person.image,
          slug,
        },
      };
    }
    case 'character': {
      const character = await em.findOne(Character, { slug });
      if (!character || !(await hasLiveAppearance(em, character))) return null;
      return {
        ...base,
        reference: character.reference,
        preview: {
          title: firstOf(character.name_ua, character.name_en, character.name_ja),
          image: character.image,
          slug,
        },
      };
    }
    case 'article': {
      const article = await em.findOne(Article, { slug, deleted: false });
      if (!article) return null;
      return {
        ...base,
        reference: article.reference,
        owner: article.author.reference,
        preview: { title: article.title, image: null, slug },
      };
    }
    case 'collection': {
      if (!isUuid(slug)) return null;
      const reference = slug.toLowerCase();
      const collection = await em.findOne(Collection, { reference, deleted: false });
      if (!collection) return null;
      const isPrivate = collection.visibility === 'private';
      if (isPrivate && collection.author.reference !== viewer) return null;
      const [first] = await em.execute<{ content_type: string; content_reference: string }[]>(
        `select content_type, content_reference from collection_item where collection_reference = ? and "order" = 1`,
        [reference],
      );
      return {
        ...base,
        slug: reference,
        reference,
        owner: collection.author.reference,
        private: isPrivate,
        preview: {
          title: collection.title,
          image: first ? await itemImage(em, first.content_type, first.content_reference) : null,
          slug: reference,
        },
      };
    }
    case 'edit': {
      if (!EDIT_NUMBER.test(slug)) return null;
      const edit = await em.findOne(Edit, { edit_id: Number(slug) });
      if (!edit) return null;
      const number = String(edit.edit_id);
      return {
        ...base,
        slug: number,
        reference: editReference(edit.edit_id),
        owner: edit.author.reference,
        preview: {
          title: null,
          image: await itemImage(em, edit.content_type, edit.content_reference),
          slug: number,
        },
      };
    }
  }
}

/**
 * {@link findCommentContent}'s look-up as a compiled root's subject (src/graphql/sql-plan):
 * the item's reference (a comment's `content_reference`), found by the same rules.
 */
export function commentContentSubject(
  type: CommentContentType,
  slug: string,
  viewer: string | null,
): SqlSubject {
  return { select: contentReferenceSql(type, slug, viewer), notFound: 'comment:content_not_found' };
}

function contentReferenceSql(type: CommentContentType, slug: string, viewer: string | null): SqlFragment {
  const found = (rows: string, ...params: unknown[]) =>
    sql(`select reference, null::text as refused from ${rows}`, ...params);
  const nothing = sql('select null::uuid as reference, null::text as refused where false');
  switch (type) {
    case 'anime':
    case 'manga':
    case 'novel':
    case 'article':
      return found(`${type} where slug = ? and not deleted`, slug);
    case 'person':
      return found('person where slug = ?', slug);
    case 'character':
      return found(`character c where c.slug = ? and ${liveAppearanceSql('c.reference')}`, slug);
    case 'collection':
      if (!isUuid(slug)) return nothing;
      return found(
        `collection where reference = ? and not deleted and (visibility <> 'private' or author_reference = ?)`,
        slug.toLowerCase(),
        viewer,
      );
    case 'edit': {
      if (!EDIT_NUMBER.test(slug)) return nothing;
      const number = Number(slug);
      return sql(
        'select ?::uuid as reference, null::text as refused from edit where edit_id = ?',
        editReference(number),
        number,
      );
    }
  }
}

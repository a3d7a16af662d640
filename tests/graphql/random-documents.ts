/**
 * The random-document generator of the compiled reads' tests (src/graphql/sql-plan):
 * for each root with a SQL form, the largest selection the compiler expresses (found
 * field by field, so every field with a SQL form that a root reaches is in it), and
 * seeded random documents drawn from it: {@link randomDocument} (one root, for the drift
 * test of sql-plans.test.ts) and {@link frontendDocument} (several roots, fields twice
 * and fragments that merge, for compiled-differential.test.ts). The roots name rows of
 * compiled-reads-seeds.ts.
 */
import type { MetadataStorage } from '@mikro-orm/core';
import {
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isLeafType,
  isObjectType,
  isUnionType,
  Kind,
  parse,
} from 'graphql';
import { compileSqlPlan } from '../../src/graphql/sql-plan/compile';
import { LABELLED_COLLECTION, THREAD_MIDDLE, THREAD_TOP } from './compiled-reads-seeds';

/** A node of a selection: a field, or an inline fragment on a union's member. */
export interface Selected {
  /** A field's name, or `... on <Type>` for an inline fragment on a union's member. */
  name: string;
  /** The field's (or fragment's) type, for selections with children. */
  type?: GraphQLCompositeType;
  fragment?: boolean;
  children?: Selected[];
}

/** A root field with a SQL form, as the random documents call it. */
export interface CompiledRoot {
  field: string;
  /** Its arguments, as written in a document (literals naming seeded rows). */
  args: string;
  /** The union members the listed items are of. */
  members?: string[];
  /** The caller's own: required authentication, so documents send a token. */
  callerOnly?: true;
  /** Other arguments of the same root, for documents that ask for it twice. */
  alternativeArgs?: string;
}

/** The members of a collection item's content. */
const CONTENT_KINDS = ['Anime', 'Manga', 'Novel', 'Character', 'Person'];

/** Every root with a SQL form, with arguments that reach the seeded rows. */
export const roots: readonly CompiledRoot[] = [
  { field: 'manga', args: 'slug: "edge-manga"', alternativeArgs: 'slug: "writer-manga-0"' },
  { field: 'anime', args: 'slug: "anime-0"', alternativeArgs: 'slug: "talked"' },
  { field: 'novel', args: 'slug: "novel-1"', alternativeArgs: 'slug: "cast"' },
  { field: 'person', args: 'slug: "writer"', alternativeArgs: 'slug: "a-author"' },
  { field: 'character', args: 'slug: "cast-member"' },
  { field: 'animeCharacters', args: 'slug: "anime-0", size: 20' },
  { field: 'mangaCharacters', args: 'slug: "edge-manga", size: 20' },
  {
    field: 'animeStaff',
    args: 'slug: "anime-0", size: 20',
    alternativeArgs: 'slug: "anime-0", page: 2, size: 1',
  },
  { field: 'personAnime', args: 'slug: "writer", size: 20' },
  { field: 'personNovel', args: 'slug: "writer", size: 20' },
  { field: 'characterAnime', args: 'slug: "cast-member", size: 20' },
  { field: 'characterManga', args: 'slug: "cast-member", size: 20' },
  { field: 'user', args: 'username: "reader"', alternativeArgs: 'username: "watcher"' },
  {
    field: 'novelSearch',
    args: 'page: 1, size: 20, input: {}',
    alternativeArgs: 'page: 3, size: 2, input: {}',
  },
  { field: 'novelSearch', args: 'page: 2, size: 3, input: { sort: ["start_date:asc"] }' },
  // An NSFW title is listed only when its genre is asked for (semantics §1.9).
  { field: 'novelSearch', args: 'page: 1, size: 20, input: { genres: ["hentai"] }' },
  { field: 'novelCharacters', args: 'slug: "cast", size: 20' },
  {
    field: 'animeList',
    args: 'size: 20, input: {}',
    alternativeArgs: 'page: 2, size: 3, input: { sort: ["start_date:asc"] }',
  },
  { field: 'mangaList', args: 'size: 20, input: { sort: ["score:asc"] }' },
  {
    field: 'watchList',
    args: 'username: "watcher", size: 20, input: {}',
    alternativeArgs: 'username: "watcher", size: 2, input: { sort: ["watch_score:asc"] }',
  },
  {
    field: 'personManga',
    args: 'slug: "writer", size: 20',
    alternativeArgs: 'slug: "writer", page: 2, size: 2',
  },
  { field: 'characterNovels', args: 'slug: "cast-member", size: 20' },
  {
    field: 'readList',
    args: 'content_type: manga, username: "reader", size: 20, input: {}',
    members: ['Manga', 'Novel'],
    alternativeArgs: 'content_type: novel, username: "reader", size: 2, input: { sort: ["read_score:asc"] }',
  },
  { field: 'genres', args: '' },
  { field: 'articleStats', args: '' },
  { field: 'sitemap', args: 'content_type: anime', alternativeArgs: 'content_type: novel' },
  { field: 'companies', args: 'size: 20, input: {}', alternativeArgs: 'size: 5, input: { type: studio }' },
  { field: 'people', args: 'size: 20, input: {}', alternativeArgs: 'size: 5, input: { query: "writ" }' },
  { field: 'characters', args: 'size: 20, input: {}', alternativeArgs: 'size: 5, input: { query: "cast" }' },
  { field: 'watchStats', args: 'username: "watcher"', alternativeArgs: 'username: "reader"' },
  { field: 'readStats', args: 'content_type: manga, username: "reader"', members: ['ReadStats'] },
  { field: 'readStats', args: 'content_type: novel, username: "reader"', members: ['ReadStats'] },
  { field: 'followStats', args: 'username: "reader"' },
  { field: 'followers', args: 'username: "reader", size: 20' },
  { field: 'following', args: 'username: "reader", size: 20' },
  { field: 'userActivity', args: 'username: "reader"' },
  // One candidate: the pick is the same both ways.
  { field: 'randomWatchEntry', args: 'username: "reader", status: watching' },
  { field: 'followingWatchers', args: 'slug: "LISTED-1", size: 20', callerOnly: true },
  {
    field: 'followingReaders',
    args: 'content_type: manga, slug: "listed-manga", size: 20',
    alternativeArgs: 'content_type: novel, slug: "novel-1", size: 20',
    callerOnly: true,
  },
  ...(['anime', 'manga', 'novel', 'character', 'collection'] as const).map((kind) => ({
    field: 'favourites',
    args: `content_type: ${kind}, username: "reader", size: 20`,
    members: [`Favourite${kind[0].toUpperCase()}${kind.slice(1)}`, ...CONTENT_KINDS],
  })),
  { field: 'franchise', args: 'content_type: manga, slug: "edge-manga"' },
  { field: 'animeSchedule', args: 'size: 20, input: {}' },
  { field: 'editTodo', args: 'content_type: novel, todo_type: title_ua, size: 20', members: ['Novel'] },
  {
    field: 'editTodo',
    args: 'content_type: anime, todo_type: synopsis_ua, size: 20',
    members: ['Anime'],
  },
  // One candidate: the pick is the same both ways.
  {
    field: 'randomReadEntry',
    args: 'content_type: manga, username: "reader", status: completed',
    members: ['Manga'],
  },
  { field: 'contentComments', args: 'content_type: anime, slug: "talked", size: 20' },
  { field: 'comments', args: 'size: 20', alternativeArgs: 'page: 2, size: 5' },
  {
    field: 'commentThread',
    args: `comment_reference: "${THREAD_TOP}"`,
    alternativeArgs: `comment_reference: "${THREAD_MIDDLE}"`,
  },
  { field: 'commentThread', args: `comment_reference: "${THREAD_MIDDLE}"` },
  { field: 'latestComments', args: '' },
  { field: 'collection', args: `reference: "${LABELLED_COLLECTION}"`, members: CONTENT_KINDS },
  {
    field: 'collections',
    args: 'size: 20, input: { only_public: false }',
    members: CONTENT_KINDS,
    alternativeArgs: 'page: 2, size: 2, input: {}',
  },
  // The caller's own (required authentication).
  { field: 'watchEntry', args: 'slug: "listed-1"', callerOnly: true },
  {
    field: 'readEntry',
    args: 'content_type: manga, slug: "listed-manga"',
    members: ['Manga'],
    callerOnly: true,
  },
  { field: 'me', args: '', callerOnly: true },
  { field: 'notificationCount', args: '', callerOnly: true },
  { field: 'notifications', args: 'size: 20', callerOnly: true },
];

/** A root field with its arguments, if it has any. */
export const call = (field: string, args: string): string => (args ? `${field}(${args})` : field);

/** A selection written out as it is, without aliases, fragments or directives. */
export const plain = (nodes: Selected[]): string =>
  nodes.map(({ name, children }) => (children ? `${name} { ${plain(children)} }` : name)).join(' ');

/** Object types below the root field a selection descends into, at most. */
const MAX_DEPTH = 4;

/** The values of {@link randomDocument}'s variables (their defaults). */
const CONDITIONS = { yes: true, no: false };

/** An inline fragment on a union's member, to be expanded with the member's fields. */
const memberFragment = (member: GraphQLObjectType): Selected => ({
  name: `... on ${member.name}`,
  type: member,
  fragment: true,
  children: [{ name: '__typename' }],
});

/** What the compiler expresses under a schema: whether a document compiles, and each root's largest selection. */
export class CompilableSelections {
  constructor(
    readonly schema: GraphQLSchema,
    private readonly metadata: MetadataStorage,
  ) {}

  /** Whether the document's (first) operation compiles to SQL with these coerced variables. */
  compiles(document: string, variables: Record<string, unknown> = CONDITIONS): boolean {
    const parsed = parse(document);
    const operation = parsed.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION)!;
    return compileSqlPlan(this.schema, parsed, operation, this.metadata, variables) !== undefined;
  }

  /** The named type of a root field. */
  rootType(field: string): GraphQLCompositeType {
    return getNamedType(this.schema.getQueryType()!.getFields()[field].type) as GraphQLCompositeType;
  }

  /** The largest selection under `root` that compiles, `__typename` first at each level. */
  largestSelection({ field, args, members = [] }: CompiledRoot): Selected[] {
    const type = this.rootType(field);
    const top: Selected[] = [{ name: '__typename' }];
    const render = () => `{ ${call(field, args)} { ${plain(top)} } }`;
    if (isObjectType(type)) this.expand(render, top, type, 0, members);
    // A root typed as a union: an inline fragment on each member it answers with.
    else if (isUnionType(type)) {
      for (const member of type.getTypes().filter((each) => members.includes(each.name))) {
        const fragment = memberFragment(member);
        top.push(fragment);
        this.expand(render, fragment.children!, member, 0, members);
      }
    }
    return top;
  }

  /** Adds to `at` every field of `type` the compiler expresses within the whole document `render()`. */
  private expand(
    render: () => string,
    at: Selected[],
    type: GraphQLObjectType,
    depth: number,
    members: string[],
  ): void {
    for (const [name, field] of Object.entries(type.getFields())) {
      if (field.args.length > 0 || name === '__typename') continue;
      const named = getNamedType(field.type);
      if (isUnionType(named)) {
        // An inline fragment on each member the items are of.
        const child: Selected = { name, type: named, children: [{ name: '__typename' }] };
        at.push(child);
        for (const member of named.getTypes().filter((each) => members.includes(each.name))) {
          const fragment = memberFragment(member);
          child.children!.push(fragment);
          this.expand(render, fragment.children!, member, depth + 1, members);
        }
        if (!this.compiles(render())) at.pop();
      } else if (isObjectType(named)) {
        if (depth >= MAX_DEPTH) continue;
        const child: Selected = { name, type: named, children: [{ name: '__typename' }] };
        at.push(child);
        if (!this.compiles(render())) {
          at.pop();
          continue;
        }
        this.expand(render, child.children!, named, depth + 1, members);
      } else if (isLeafType(named)) {
        at.push({ name });
        if (!this.compiles(render())) at.pop();
      }
    }
  }
}

/** mulberry32: a random stream that gives the same documents on every run of a seed. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random document over `selection` of one root: a subset of it, written in the ways a
 * frontend might (aliases, inline and named fragments, `@skip`/`@include` on the
 * variables `$yes` and `$no`, which default to true and false).
 */
export function randomDocument(
  random: () => number,
  field: string,
  args: string,
  selection: Selected[],
  type: GraphQLCompositeType,
): string {
  const fragments: string[] = [];
  let aliases = 0;
  const write = (nodes: Selected[], on: GraphQLCompositeType): string => {
    const kept = nodes.filter(() => random() < 0.7);
    if (kept.length === 0) kept.push(nodes[Math.floor(random() * nodes.length)]);
    const parts = kept.map(({ name, type: child, fragment, children }) => {
      const alias = !fragment && aliases < 20 && random() < 0.15 ? `a${(aliases += 1)}: ` : '';
      const roll = random();
      const directive =
        roll < 0.08
          ? ' @include(if: $yes)'
          : roll < 0.16
            ? ' @skip(if: $no)'
            : roll < 0.2
              ? ' @skip(if: $yes)'
              : '';
      return `${alias}${name}${directive}${children ? ` { ${write(children, child!)} }` : ''}`;
    });
    // Some of the fields move into a fragment on the same type, inline or named.
    const cut = Math.floor(random() * parts.length);
    const moved = parts.splice(cut, random() < 0.3 ? parts.length - cut : 0);
    if (moved.length === 0) return parts.join(' ');
    if (random() < 0.5) return [...parts, `... on ${on.name} { ${moved.join(' ')} }`].join(' ');
    const name = `F${fragments.length + 1}`;
    fragments.push(`fragment ${name} on ${on.name} { ${moved.join(' ')} }`);
    return [...parts, `...${name}`].join(' ');
  };
  // Both variables are used at least once, as GraphQL requires.
  const body = `${write(selection, type)} __typename @include(if: $yes) @skip(if: $no)`;
  return `query Random($yes: Boolean! = true, $no: Boolean! = false) { ${call(field, args)} { ${body} } } ${fragments.join(' ')}`;
}

/** A root with a SQL form and its largest selection ({@link CompilableSelections.largestSelection}). */
export interface RootSelection {
  root: CompiledRoot;
  type: GraphQLCompositeType;
  selection: Selected[];
}

/** The ways of writing a document that {@link frontendDocument} reports it used. */
export const FEATURES = [
  'several roots',
  'a root twice, other arguments',
  'a root twice, other selections',
  'list twice',
  'pagination twice',
  'an object field twice',
  'a union field twice',
  'a leaf twice',
  'a member fragment twice',
  'a field again in a fragment',
  'an inline fragment',
  'an untyped inline fragment',
  'a named fragment',
  'a literal condition',
  'a variable condition',
  'a nullable variable condition',
] as const;
export type Feature = (typeof FEATURES)[number];

/** A document written as a frontend, or a hostile client, might write it. */
export interface FrontendDocument {
  /** The operation first, its opening `{` followed by a newline; then its fragments. */
  text: string;
  /** Whether it declares `$maybe` (`Boolean = true`), which a request may give, leave out or set to null. */
  usesMaybe: boolean;
  /** Whether one of its roots needs a caller. */
  callerOnly: boolean;
  features: ReadonlySet<Feature>;
}

/** The variables of `@skip`/`@include` conditions, with their declarations. */
const CONDITION_VARIABLES = { yes: 'Boolean! = true', no: 'Boolean! = false', maybe: 'Boolean = true' };
type ConditionVariable = keyof typeof CONDITION_VARIABLES;
const CONDITIONS_WRITTEN = ['true', 'false', '$yes', '$no', '$maybe', '$maybe'] as const;

/** Aliases a document uses at most: the default limit is 30, fragments counted at every use (each is used once). */
const MAX_ALIASES = 28;

/**
 * A random document over one to three of `available` roots: subsets of their largest
 * selections with the same field (or root) under several aliases with different
 * sub-selections or arguments, fragments (inline, untyped, named) that select a field
 * again with another sub-selection, and `@skip`/`@include` on literals, on non-null
 * variables with defaults and on `$maybe`.
 */
export function frontendDocument(
  random: () => number,
  available: readonly RootSelection[],
): FrontendDocument {
  return new FrontendWriter(random).document(available);
}

class FrontendWriter {
  private readonly fragments: string[] = [];
  private readonly used = new Set<ConditionVariable>();
  private readonly features = new Set<Feature>();
  private aliases = 0;

  constructor(private readonly random: () => number) {}

  document(available: readonly RootSelection[]): FrontendDocument {
    const roll = this.random();
    const count = roll < 0.4 ? 1 : roll < 0.8 ? 2 : 3;
    const chosen: RootSelection[] = [];
    while (chosen.length < count) {
      const next = this.pick(available);
      if (!chosen.includes(next)) chosen.push(next);
    }
    if (count > 1) this.features.add('several roots');
    // The roots' aliases first, so that their selections' cannot use them up.
    const present = new Set<string>();
    const calls = chosen.flatMap((entry) => {
      const { root } = entry;
      // Another entry of a root already written (other arguments) needs an alias.
      const first = { entry, args: root.args, alias: present.has(root.field) ? this.alias() : '' };
      present.add(root.field);
      if (this.random() >= 0.35) return [first];
      this.features.add(
        root.alternativeArgs ? 'a root twice, other arguments' : 'a root twice, other selections',
      );
      return [first, { entry, args: root.alternativeArgs ?? root.args, alias: this.alias() }];
    });
    const fields = calls.map(
      ({ entry: { root, type, selection }, args, alias }) =>
        `${alias}${call(root.field, args)}${this.condition()} { ${this.selection(selection, type)} }`,
    );
    const body = this.regroup(fields, 'Query');
    const declared = Object.entries(CONDITION_VARIABLES)
      .filter(([name]) => this.used.has(name as ConditionVariable))
      .map(([name, type]) => `$${name}: ${type}`);
    const header = declared.length > 0 ? `query Differential(${declared.join(', ')})` : 'query Differential';
    return {
      text: [`${header} {`, ...body.map((part) => `  ${part}`), '}', ...this.fragments].join('\n'),
      usesMaybe: this.used.has('maybe'),
      callerOnly: chosen.some(({ root }) => root.callerOnly),
      features: this.features,
    };
  }

  /** A random subset of `nodes`, some written twice, some moved into fragments. */
  private selection(nodes: Selected[], on: GraphQLCompositeType): string {
    const kept = nodes.filter(() => this.random() < 0.6);
    if (kept.length === 0) kept.push(this.pick(nodes));
    const parts: string[] = [];
    for (const node of kept) {
      parts.push(this.node(node, ''));
      const again = this.again(node);
      if (again !== undefined) parts.push(this.node(node, again));
    }
    // An object field selected again in a fragment, with another sub-selection: GraphQL merges the two.
    const objects = kept.filter(({ fragment, children }) => !fragment && children);
    if (objects.length > 0 && this.random() < 0.3) {
      const { name, type, children } = this.pick(objects);
      this.features.add('a field again in a fragment');
      parts.push(this.fragment(on.name, [`${name} { ${this.selection(children!, type!)} }`]));
    }
    return this.regroup(parts, on.name).join(' ');
  }

  /** The alias under which `node` is written a second time ('' for a member fragment, which takes none), or undefined. */
  private again({ name, type, fragment, children }: Selected): string | undefined {
    const twice = name === 'list' || name === 'pagination' ? 0.5 : children ? 0.25 : 0.1;
    if (this.random() >= twice) return undefined;
    if (fragment) {
      this.features.add('a member fragment twice');
      return '';
    }
    const alias = this.alias();
    if (!alias) return undefined;
    this.features.add(
      name === 'list'
        ? 'list twice'
        : name === 'pagination'
          ? 'pagination twice'
          : !children
            ? 'a leaf twice'
            : type && isUnionType(type)
              ? 'a union field twice'
              : 'an object field twice',
    );
    return alias;
  }

  /** `node` under `alias` (or none), perhaps with a condition, and a random selection of its children. */
  private node({ name, type, children }: Selected, alias: string): string {
    const selection = children ? ` { ${this.selection(children, type!)} }` : '';
    return `${alias}${name}${this.condition()}${selection}`;
  }

  /** Moves some of `parts` (those from a random cut on, now and then) into a fragment on `on`. */
  private regroup(parts: string[], on: string): string[] {
    const cut = Math.floor(this.random() * parts.length);
    const moved = parts.splice(cut, this.random() < 0.3 ? parts.length - cut : 0);
    return moved.length > 0 ? [...parts, this.fragment(on, moved)] : parts;
  }

  /** `parts` in a fragment on `on`: inline with its type, inline without one, or named. */
  private fragment(on: string, parts: string[]): string {
    const roll = this.random();
    if (roll < 0.35) {
      this.features.add('an inline fragment');
      return `... on ${on}${this.condition()} { ${parts.join(' ')} }`;
    }
    if (roll < 0.5) {
      this.features.add('an untyped inline fragment');
      return `...${this.condition()} { ${parts.join(' ')} }`;
    }
    this.features.add('a named fragment');
    const name = `F${this.fragments.length + 1}`;
    this.fragments.push(`fragment ${name} on ${on} { ${parts.join(' ')} }`);
    return `...${name}${this.condition()}`;
  }

  /** Now and then a `@skip` or `@include`, on a literal or a variable. */
  private condition(): string {
    if (this.random() >= 0.3) return '';
    const condition = this.pick(CONDITIONS_WRITTEN);
    if (condition.startsWith('$')) {
      this.used.add(condition.slice(1) as ConditionVariable);
      this.features.add(condition === '$maybe' ? 'a nullable variable condition' : 'a variable condition');
    } else this.features.add('a literal condition');
    return ` @${this.random() < 0.5 ? 'include' : 'skip'}(if: ${condition})`;
  }

  /** A new alias, or '' once the document has as many as the limit allows. */
  private alias(): string {
    return this.aliases < MAX_ALIASES ? `a${(this.aliases += 1)}: ` : '';
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
}

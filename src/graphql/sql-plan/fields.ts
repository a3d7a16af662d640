import type { ErrorCode } from '../../common/errors/catalog';
import type { ListQuery } from '../../common/pagination/paged-query';
import type { RequestContext } from '../../context';
import type { SqlFragment } from '../../db/sql';
import { GraphQLSchema } from 'graphql';

/**
 * How GraphQL fields read in SQL, for operations compiled to one statement that builds
 * their JSON in PostgreSQL (./compile.ts). Each mapping is declared next to the field it
 * mirrors (the resolver or the entity getter); columns of MikroORM entities need none.
 * The parity and drift tests run every compiled operation both ways on real data.
 */

/** Where the rows of a nested object, or of a list of them, come from. */
export interface RowSource {
  /** A `from` clause that binds `alias` (joins allowed; other aliases derive from `alias`). */
  from: string;
  where?: string;
  /** List order; ties must be broken, as the resolver's sort does. */
  orderBy?: string;
}

/** SQL expressions of the request's own values, and how the root field serves its rows. */
export interface SqlRequest {
  /** The caller's user reference (uuid), null when anonymous. */
  viewer: string;
  /** The request's time (timestamptz): `RequestContext.now`, as the resolvers read it. */
  now: string;
  /** The root field's {@link SqlRoot.serving} (empty when it declares none). */
  serving: Serving;
  /**
   * The reference (uuid) of the root's subject, e.g. the user whose favourites a page
   * lists; reading it under a root without a subject leaves the operation uncompiled.
   */
  subject: string;
}

/**
 * What a root field declares about how the rows below it are served, as its resolver
 * records it for field resolvers (src/common/root-field-state.ts): e.g. whether comments
 * come with their reply trees. Mappings read it when the compiled statement is built.
 */
export type Serving = Readonly<Record<string, boolean>>;

/**
 * How a scalar reads in SQL, as its `extensions.sql` (GraphQL's own scalars have theirs
 * in ./compile.ts): what `serialize` makes of a stored value, and which stored values it
 * refuses. A compiled plan meeting a refused value executes instead, so that the
 * resolvers report the error as they would.
 */
export interface ScalarSql {
  /** The serialized value from the stored one; as stored by default. */
  value?: (stored: string) => string;
  /** A condition true for the stored values `serialize` throws on (null is never one). */
  refuses?: (stored: string) => string;
}

export type SqlField =
  /**
   * A scalar (or list of scalars) computed from the row's alias; the scalar's own SQL form
   * applies. `columnType`: the SQL type of the value, when an Int needs no range check for it.
   */
  | { kind: 'value'; sql: (row: string, request: SqlRequest) => string; columnType?: string }
  /** An object or a list of objects, read from other rows. */
  | { kind: 'rows'; rows: (row: string, alias: string, request: SqlRequest) => RowSource }
  /** The row the entity's many-to-one relation of the same name points to (joined from the ORM's metadata). */
  | { kind: 'relation' }
  /** An object of a union type whose member is chosen per row (see {@link sqlMember}). */
  | { kind: 'member'; by: (row: string) => string; members: Readonly<Record<string, MemberRows>> };

/** One member of a union chosen per row: its entity, and where its row comes from. */
export interface MemberRows {
  type: AnyClass;
  rows: (row: string, alias: string, request: SqlRequest) => RowSource;
}

type AnyClass = abstract new (...args: never[]) => unknown;

/**
 * One root field (of Query) and the rows it answers with: one row found from its
 * arguments (given as SQL expressions) or a plain list of rows (`list`, in the rows'
 * `orderBy`), or a page of the rows a list query selects (built by the resolver's own
 * service, with its checks, from the arguments' values).
 */
export type SqlRoot = (
  | {
      kind: 'one' | 'list';
      /**
       * The GraphQL type's entity (or the argument choosing it, for a root typed as a union),
       * or a row type (see {@link sqlRowType}), whose rows name their own source.
       */
      type: AnyClass | ItemChoice;
      /**
       * The row, from the arguments (SQL expressions of their values; arguments of
       * GraphQL's own scalars only, and the argument that chooses the entity, as a
       * literal), the subject's reference (SQL), if there is one, the entity's table and
       * the request's values.
       */
      rows: (
        alias: string,
        args: Record<string, string>,
        subject: string,
        table: string,
        request: SqlRequest,
      ) => RowSource;
      /** The arguments' values as the statement takes them (by default as given). */
      values?: (args: Record<string, unknown>) => Record<string, unknown>;
      /** The row found through another (a title's franchise): that row's look-up and refusals decide. */
      subject?: SubjectOf;
      /** The error when no row is found (with a subject: once the subject is found), before the scopes. */
      notFound?: ErrorCode;
      /**
       * With a subject: the error when the subject is found but its row is withheld for
       * its state (a hidden comment), checked after the scopes, instead of `notFound`.
       */
      withheld?: ErrorCode;
    }
  | {
      kind: 'page';
      /** The entity of the listed items (or the argument choosing it); `ListQuery.reference` selects their references. */
      item: AnyClass | ItemChoice;
      /**
       * The GraphQL type of the listed items when it is not `item` itself: a view of one
       * `item` row (e.g. `{roles, manga}` of a credit), each of its fields declared with
       * {@link sqlFields} over that row.
       */
      view?: AnyClass;
      /** The row the list belongs to (a novel, a user), looked up in the same statement. */
      subject?: SubjectOf;
      /** The list query; `subject` is the SQL expression of the subject's reference. */
      query: (ctx: RequestContext, args: Record<string, unknown>, subject: SqlFragment) => Promise<ListQuery>;
    }
) & {
  /**
   * Optional authentication with these scopes ([] for none): the caller is resolved
   * first (a deleted account is refused), and a third-party token's scopes are checked
   * once the subject is found, as semantics §1.1.2 orders existence before scope.
   */
  scopes?: readonly string[];
  /**
   * Required authentication, as the query's own `@Authorized()` asks (the only guard a
   * compiled root may have): the caller is resolved first, and a missing, bad or expired
   * token, a banned or deleted account is refused as type-graphql's auth checker refuses it.
   */
  authentication?: 'required';
  /** How the rows below the root are served (see {@link Serving}). */
  serving?: Serving;
};

/**
 * A root's subject from its arguments' values; the request is there for a look-up that
 * depends on the caller (a private collection is found by its author only).
 */
type SubjectOf = (args: Record<string, unknown>, ctx: RequestContext) => SqlSubject | Promise<SqlSubject>;

/**
 * The entity a root lists (or answers with) chosen by a root argument's value, e.g.
 * `content_type` for anime, manga or novels typed as their union: each value compiles a
 * plan of its own.
 */
export interface ItemChoice {
  argument: string;
  items: Readonly<Record<string, AnyClass>>;
}

/**
 * A look-up a list depends on: `select` returns at most one row, with `reference` and
 * `refused` (the code of an error its state means, e.g. a deleted user, else null);
 * no row answers `notFound`.
 */
export interface SqlSubject {
  select: SqlFragment;
  notFound: ErrorCode;
}

export const sqlValue = (
  sql: (row: string, request: SqlRequest) => string,
  columnType?: string,
): SqlField => ({
  kind: 'value',
  sql,
  columnType,
});
export const sqlRows = (rows: (row: string, alias: string, request: SqlRequest) => RowSource): SqlField => ({
  kind: 'rows',
  rows,
});

/**
 * For a field typed as a union whose member depends on the row (a collection item's
 * content): `by` is the SQL of the value that chooses it, `members` each value's entity
 * and row; a value with no member answers null.
 */
export const sqlMember = (
  by: (row: string) => string,
  members: Readonly<Record<string, MemberRows>>,
): SqlField => ({
  kind: 'member',
  by,
  members,
});

/** For a field resolver that only loads the many-to-one relation of the same name. */
export const sqlRelation: SqlField = { kind: 'relation' };

/**
 * One declaration of how GraphQL reads in SQL. A domain exports its declarations next to
 * the resolvers they mirror; the schema's builder gathers every domain's
 * (src/schema.ts) and attaches them to the schema ({@link withSqlForms}).
 */
export type SqlForm =
  | { kind: 'fields'; type: AnyClass; fields: Readonly<Record<string, SqlField>> }
  | { kind: 'row type'; type: AnyClass }
  | { kind: 'root'; field: string; root: SqlRoot };

/** How fields of `type` (and of its subclasses) read in SQL. */
export const sqlFields = (type: AnyClass, fields: Readonly<Record<string, SqlField>>): SqlForm => ({
  kind: 'fields',
  type,
  fields,
});

/** A GraphQL type whose scalar fields are columns of the same name of its row source (not an entity). */
export const sqlRowType = (type: AnyClass): SqlForm => ({ kind: 'row type', type });

/** The rows a root field (of Query) answers with. */
export const sqlRoot = (field: string, root: SqlRoot): SqlForm => ({ kind: 'root', field, root });

/** Every SQL form of a schema, looked up by the compiler. */
export class SqlForms {
  private readonly fieldsByClass = new Map<AnyClass, Map<string, SqlField>>();
  private readonly rowTypes = new Set<AnyClass>();
  private readonly roots = new Map<string, SqlRoot>();

  constructor(forms: readonly SqlForm[]) {
    for (const form of forms) {
      switch (form.kind) {
        case 'fields': {
          const known = this.fieldsByClass.get(form.type) ?? new Map<string, SqlField>();
          for (const [name, field] of Object.entries(form.fields)) {
            if (known.has(name)) throw new Error(`SQL form of ${form.type.name}.${name} declared twice`);
            known.set(name, field);
          }
          this.fieldsByClass.set(form.type, known);
          break;
        }
        case 'row type':
          this.rowTypes.add(form.type);
          break;
        case 'root':
          if (this.roots.has(form.field)) throw new Error(`SQL root ${form.field} declared twice`);
          this.roots.set(form.field, form.root);
          break;
      }
    }
  }

  rootOf(field: string): SqlRoot | undefined {
    return this.roots.get(field);
  }

  /** The mapping `type` itself declares for `field` (not a base class's). */
  ownField(type: unknown, field: string): SqlField | undefined {
    return this.fieldsByClass.get(type as AnyClass)?.get(field);
  }

  /** Every declared mapping, as the class that declares it and the field's GraphQL name. */
  declaredFields(): { type: AnyClass; field: string }[] {
    return [...this.fieldsByClass].flatMap(([type, fields]) =>
      [...fields.keys()].map((field) => ({ type, field })),
    );
  }

  isRowType(type: AnyClass): boolean {
    return this.rowTypes.has(type);
  }
}

declare module 'graphql' {
  interface GraphQLSchemaExtensions {
    /** The schema's SQL forms, for the compiled reads. */
    sqlForms?: SqlForms;
  }
}

/** `schema` with `forms` as its SQL forms (the same types and resolvers). */
export function withSqlForms(schema: GraphQLSchema, forms: SqlForms): GraphQLSchema {
  return new GraphQLSchema({ ...schema.toConfig(), extensions: { ...schema.extensions, sqlForms: forms } });
}

/** The SQL forms attached to `schema` (see {@link withSqlForms}). */
export function sqlFormsOf(schema: GraphQLSchema): SqlForms {
  const forms = schema.extensions.sqlForms;
  if (!forms) throw new Error('the schema has no SQL forms: build it with withSqlForms (src/schema.ts)');
  return forms;
}

import { formulaSql } from '../../db/entity-rows';
import {
  type EntityMetadata,
  type EntityProperty,
  type MetadataStorage,
  ReferenceKind,
} from '@mikro-orm/core';
import {
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  type GraphQLField,
  GraphQLBoolean,
  GraphQLError,
  GraphQLFloat,
  GraphQLID,
  GraphQLIncludeDirective,
  GraphQLInt,
  type GraphQLCompositeType,
  type GraphQLEnumType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLScalarType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  GraphQLString,
  isAbstractType,
  isEnumType,
  isListType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { type ClassType, getMetadataStorage } from 'type-graphql';
import { AppError } from '../../common/errors/app-error';
import { refusesOtherThan } from '../../common/scalars/value-list';
import { PAGE_MAX, Pagination, SIZE_MAX } from '../../common/pagination/pagination';
import { listSource } from '../../common/pagination/paged-query';
import { validateArguments } from '../../common/validation/arguments';
import { inputSpecOf } from '../../common/validation/input-specs';
import type { RequestContext } from '../../context';
import type { ErrorCode } from '../../common/errors/catalog';
import { concatSql, queryRows, sql, type SqlFragment, StatementTexts, type TextAccount } from '../../db/sql';
import { fieldIndex } from './field-rules';
import {
  type ItemChoice,
  type RowSource,
  type ScalarSql,
  type SqlField,
  type SqlForm,
  type SqlForms,
  sqlFields,
  sqlFormsOf,
  type SqlRequest,
  type SqlRoot,
  sqlRowType,
  sqlValue,
} from './fields';

/**
 * A query operation compiled to one SQL statement per root field, each returning its
 * field's JSON, built in PostgreSQL: the same fields, names and order graphql-js would
 * produce, read through the mappings of ./fields.ts and the entities' columns. The
 * variables are expected coerced as graphql-js coerces them; the root fields' arguments
 * are checked as their resolvers' are (src/common/validation/arguments.ts) before any
 * statement runs, and a page root's service still makes its own checks.
 */
export interface SqlPlan {
  /** The root fields' response keys, in the document's order. */
  readonly keys: readonly string[];
  /**
   * About how many bytes of heap the plan holds once compiled (its statements' pieces
   * and closures); the statement texts it keeps as it runs are reported as they are kept.
   */
  readonly bytes: number;
  /**
   * Each root field's JSON text, in the order of `keys`; undefined when an argument does
   * not pass its resolver's checks (execution then reports it, as it would).
   */
  run(ctx: RequestContext, variables: Record<string, unknown>): Promise<string[] | undefined>;
  /** The statement the first root field sends, after its own look-ups and checks (for the benchmark's floor). */
  statement(ctx: RequestContext, variables: Record<string, unknown>): Promise<SqlFragment>;
}

/** A part of the selection this compiler cannot express; the operation then executes normally. */
class NotCompilable extends Error {}

type AnyClass = abstract new (...args: never[]) => unknown;

/** JSON objects are built with json_build_object, which takes at most 100 arguments. */
const MAX_KEYS = 50;

/** SQL types of the root arguments a plan can bind. */
const ARGUMENT_TYPES = new Map<unknown, string>([
  [GraphQLString, 'text'],
  [GraphQLID, 'text'],
  [GraphQLInt, 'integer'],
  [GraphQLFloat, 'double precision'],
  [GraphQLBoolean, 'boolean'],
]);

/**
 * GraphQL's own scalars in SQL: graphql-js refuses integers beyond 32 bits or with a
 * fraction, and floats that are not finite; strings, IDs and booleans pass as stored.
 */
const SPECIFIED_SCALARS = new Map<GraphQLScalarType, ScalarSql>([
  [GraphQLString, {}],
  [GraphQLID, {}],
  [GraphQLBoolean, {}],
  [GraphQLInt, { refuses: (v) => `(${v} not between -2147483648 and 2147483647 or ${v} <> trunc(${v}))` }],
  [GraphQLFloat, { refuses: (v) => `(${v})::float8 in ('NaN', 'Infinity', '-Infinity')` }],
]);

/** A scalar's SQL form: GraphQL's own, or the `extensions.sql` of ours (see ScalarSql). */
function scalarSqlOf(scalar: GraphQLScalarType): ScalarSql | undefined {
  return SPECIFIED_SCALARS.get(scalar) ?? (scalar.extensions.sql as ScalarSql | undefined);
}

/**
 * An enum's SQL form, when its values are stored as their names (the value lists of
 * src/common/scalars/value-list.ts): the stored text as it is, other text refused, as
 * `serialize` refuses it.
 */
function enumSqlOf(type: GraphQLEnumType): ScalarSql | undefined {
  const values = type.getValues();
  if (values.some(({ name, value }) => name !== value)) return undefined;
  return { refuses: refusesOtherThan(values.map(({ name }) => name)) };
}

/** A leaf type's SQL form (see ScalarSql). */
function leafSqlOf(type: GraphQLNamedType): ScalarSql | undefined {
  if (isScalarType(type)) return scalarSqlOf(type);
  if (isEnumType(type)) return enumSqlOf(type);
  return undefined;
}

/** Column types whose every value an Int holds: no check needed. */
const isIntegerColumn = (columnType: string | undefined): boolean =>
  columnType !== undefined &&
  ['int', 'int2', 'int4', 'integer', 'smallint'].includes(columnType.toLowerCase());

/** A field's SQL: a declared mapping (relations resolved) or an entity column with its SQL type. */
type ValueOrRows = Exclude<SqlField, { kind: 'relation' }>;

/** A page's `pagination` (see compilePage) reads its row, which holds `total`, `size` and `page`. */
export const paginationSqlForms: readonly SqlForm[] = [
  sqlRowType(Pagination),
  sqlFields(Pagination, {
    pages: sqlValue((page) => `ceil(${page}.total::numeric / ${page}.size)::integer`),
  }),
];

/** The one-row CTE holding the request's values, as `request.<name>`. */
const REQUEST = 'request';

/** The request's values a mapping may read in SQL (SqlRequest). */
type RequestValue = Exclude<keyof SqlRequest, 'serving' | 'subject'>;

/** The request's values a mapping may read (SqlRequest): their SQL types and values. */
const REQUEST_VALUES: Record<RequestValue, { type: string; of: (ctx: RequestContext) => unknown }> = {
  viewer: { type: 'uuid', of: (ctx) => ctx.auth.viewerReference() },
  now: { type: 'timestamptz', of: (ctx) => ctx.now },
};

/**
 * The request's values the mappings read, as columns of the request's CTE (the root's
 * own arguments follow them) and a function of the request giving their values.
 */
function requestColumns(used: ReadonlySet<RequestValue>) {
  const names = (Object.keys(REQUEST_VALUES) as RequestValue[]).filter((name) => used.has(name));
  return {
    columns: names.map((name) => `?::${REQUEST_VALUES[name].type} as ${name}`),
    values: (ctx: RequestContext) => Promise.all(names.map((name) => REQUEST_VALUES[name].of(ctx))),
  };
}

class Compiler {
  private aliases = 0;
  /** The request's values the mappings read (the CTE then binds them). */
  readonly used = new Set<RequestValue>();
  readonly request: SqlRequest;
  private rootHasSubject = false;
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly classes = new Map(
    getMetadataStorage().objectTypes.map((type) => [type.name, type.target]),
  );

  /** The schema's SQL forms. */
  readonly forms: SqlForms;

  constructor(
    readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly metadata: MetadataStorage,
    /** The request's variables: what `@skip` and `@include` read, and arguments that choose a listed entity. */
    readonly variables: Record<string, unknown>,
    /** Where the statement texts the plan keeps are accounted for. */
    readonly texts: TextAccount,
  ) {
    this.forms = sqlFormsOf(schema);
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
    this.request = { serving: {} } as SqlRequest;
    Object.defineProperty(this.request, 'subject', {
      get: () => {
        if (!this.rootHasSubject) throw new NotCompilable('a subject read under a root without one');
        return `(select reference from ${SUBJECT})`;
      },
    });
    for (const name of Object.keys(REQUEST_VALUES) as RequestValue[]) {
      Object.defineProperty(this.request, name, {
        get: () => {
          this.used.add(name);
          return `(select ${name} from ${REQUEST})`;
        },
      });
    }
  }

  /** Starts a root field's statement: what it serves, its subject and the request values it reads are its own. */
  startRoot(root: SqlRoot): void {
    this.used.clear();
    this.request.serving = root.serving ?? {};
    this.rootHasSubject = root.subject !== undefined;
  }

  alias(): string {
    this.aliases += 1;
    return `t${this.aliases}`;
  }

  classOf(type: GraphQLObjectType): AnyClass {
    const target = this.classes.get(type.name);
    if (!target) throw new NotCompilable(`no class for ${type.name}`);
    return target as AnyClass;
  }

  /** The object type of `target` that a field of type `named` (the type itself, or a union with it as a member) answers with. */
  memberFor(named: GraphQLNamedType | undefined, target: AnyClass): GraphQLObjectType | undefined {
    const members = isAbstractType(named)
      ? this.schema.getPossibleTypes(named)
      : isObjectType(named)
        ? [named]
        : [];
    return members.find((member) => this.classOf(member) === target);
  }

  /** The entity's table, quoted (`user` is a reserved word). */
  tableOf(target: AnyClass): string {
    const meta = this.entityOf(target);
    if (!meta) throw new NotCompilable(`${target.name} is not an entity`);
    return `"${meta.tableName}"`;
  }

  /**
   * The metadata of `target`'s entity: its own, or that of the entity it extends, for a
   * GraphQL type that shows more of an entity's row than the entity's type does (the
   * caller's own account with its email).
   */
  private entityOf(target: AnyClass): EntityMetadata | undefined {
    for (
      let current: unknown = target;
      typeof current === 'function';
      current = Object.getPrototypeOf(current)
    ) {
      const meta = this.metadata.find((current as AnyClass).name);
      if (meta && !meta.abstract) return meta;
    }
    return undefined;
  }

  /** The fields of a selection set by response name, in order, fragments expanded and merged. */
  collect(type: GraphQLObjectType, set: SelectionSetNode, into = new Map<string, FieldNode[]>()) {
    for (const selection of set.selections) {
      if (!this.included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        into.set(key, [...(into.get(key) ?? []), selection]);
        continue;
      }
      const fragment =
        selection.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(selection.name.value) : selection;
      if (!fragment) throw new NotCompilable('unknown fragment');
      if (this.applies(fragment.typeCondition?.name.value, type))
        this.collect(type, fragment.selectionSet, into);
    }
    return into;
  }

  /**
   * Whether a fragment with this type condition applies to an object of `type`, as
   * graphql-js decides it: no condition, the type itself, or an abstract type (a union)
   * that has it as a member.
   */
  private applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (condition === undefined || condition === type.name) return true;
    const named = this.schema.getType(condition);
    if (!named) throw new NotCompilable(`unknown type ${condition}`);
    return isAbstractType(named) && this.schema.isSubType(named, type);
  }

  /** Whether `@skip` and `@include` keep `selection`, as graphql-js decides it. */
  private included(selection: SelectionNode): boolean {
    for (const directive of selection.directives ?? []) {
      if (!isConditional(directive)) throw new NotCompilable(`directive @${directive.name.value}`);
    }
    try {
      if (getDirectiveValues(GraphQLSkipDirective, selection, this.variables)?.if === true) return false;
      return getDirectiveValues(GraphQLIncludeDirective, selection, this.variables)?.if !== false;
    } catch (error) {
      // A condition graphql-js refuses (null for `if`): execution reports it.
      if (error instanceof GraphQLError) throw new NotCompilable(`@skip/@include: ${error.message}`);
      throw error;
    }
  }

  /** `json_build_object(...)` of fields by response name; `value` gives each one's SQL. */
  build(fields: Map<string, FieldNode[]>, value: (key: string, nodes: FieldNode[]) => string): string {
    if (fields.size > MAX_KEYS) throw new NotCompilable('too many fields');
    const pairs = [...fields].map(([key, nodes]) => `'${key}', ${value(key, nodes)}`);
    return `json_build_object(${pairs.join(', ')})`;
  }

  /** The selection on a row bound to `row`, as JSON. */
  object(type: GraphQLObjectType, set: SelectionSetNode, row: string): string {
    return this.build(this.collect(type, set), (_key, nodes) => this.field(type, nodes, row));
  }

  /** The merged sub-selections of one response key. */
  static selections(nodes: FieldNode[]): SelectionSetNode {
    return {
      kind: Kind.SELECTION_SET,
      selections: nodes.flatMap((each) => each.selectionSet?.selections ?? []),
    };
  }

  private field(type: GraphQLObjectType, nodes: FieldNode[], row: string): string {
    const name = nodes[0].name.value;
    if (name === '__typename') return `'${type.name}'`;
    const definition = type.getFields()[name];
    if (!definition || definition.args.length > 0) throw new NotCompilable(`field ${type.name}.${name}`);
    const mapping = this.mappingOf(type, name);
    const named = getNamedType(definition.type);
    if (mapping.kind === 'value') {
      const scalar = leafSqlOf(named);
      if (!scalar) throw new NotCompilable(`${named.name} (${type.name}.${name}) has no SQL form`);
      const stored = mapping.sql(row, this.request);
      const value = scalar.value?.(stored) ?? stored;
      const checked = scalar.refuses && !(named === GraphQLInt && isIntegerColumn(mapping.columnType));
      if (!checked) return value;
      if (isListType(getNullableType(definition.type)))
        throw new NotCompilable(`${type.name}.${name}: a list of ${named.name} has no SQL form`);
      return `(case when ${scalar.refuses!(stored)} then unserializable_value('${named.name}', (${stored})::text) else to_json(${value}) end)`;
    }
    if (mapping.kind === 'member') return this.member(type, name, definition, mapping, nodes, row);
    if (!isObjectType(named)) throw new NotCompilable(`${type.name}.${name} is not an object type`);
    const alias = this.alias();
    const source = mapping.rows(row, alias, this.request);
    const built = this.object(named, Compiler.selections(nodes), alias);
    if (isListType(getNullableType(definition.type))) {
      const order = source.orderBy ? ` order by ${source.orderBy}` : '';
      return `coalesce((select json_agg(${built}${order}) from ${source.from}${where(source)}), '[]'::json)`;
    }
    return `(select ${built} from ${source.from}${where(source)} limit 1)`;
  }

  /** A union-typed object whose member the row chooses: one `case` branch per member. */
  private member(
    type: GraphQLObjectType,
    name: string,
    definition: GraphQLField<unknown, unknown>,
    mapping: Extract<SqlField, { kind: 'member' }>,
    nodes: FieldNode[],
    row: string,
  ): string {
    const named = getNamedType(definition.type);
    if (!isAbstractType(named) || isListType(getNullableType(definition.type)))
      throw new NotCompilable(`${type.name}.${name} is not one object of a union`);
    const branches = Object.entries(mapping.members).map(([value, member]) => {
      const objectType = this.memberFor(named, member.type);
      if (!objectType) throw new NotCompilable(`${member.type.name} is no member of ${named.name}`);
      const alias = this.alias();
      const source = member.rows(row, alias, this.request);
      const built = this.object(objectType, Compiler.selections(nodes), alias);
      return `when '${value.replace(/'/g, "''")}' then (select ${built} from ${source.from}${where(source)} limit 1)`;
    });
    return `(case ${mapping.by(row)} ${branches.join(' ')} end)`;
  }

  /**
   * The field's SQL, decided by the nearest class (the type's, then its bases') that
   * declares something for it: its declared mapping, which mirrors that class's resolver
   * or getter; else a resolver has the field's meaning, and it is not compiled; else the
   * entity's column or formula behind the property, the row its many-to-one relation
   * points to, or a row type's column. A field with its own `@Authorized` or middleware
   * is never compiled (./field-rules.ts).
   */
  private mappingOf(type: GraphQLObjectType, name: string): ValueOrRows {
    const target = this.classOf(type);
    const fields = fieldIndex();
    if (fields.guarded(target, name))
      throw new NotCompilable(`${type.name}.${name} has its own @Authorized or middleware`);
    for (
      let current: unknown = target;
      typeof current === 'function';
      current = Object.getPrototypeOf(current)
    ) {
      const source = fields.own(current, name);
      const declared = this.forms.ownField(current, name);
      if (declared?.kind === 'relation') return this.relationOf(type, source.property ?? name);
      if (declared) return declared;
      if (source.resolver) throw new NotCompilable(`${type.name}.${name} has a resolver and no SQL form`);
      if (source.property !== undefined) return this.propertyOf(type, target, source.property);
    }
    throw new NotCompilable(`no SQL for ${type.name}.${name}`);
  }

  /** The entity's column or formula behind `property`, its many-to-one relation, or a row type's column. */
  private propertyOf(type: GraphQLObjectType, target: AnyClass, property: string): ValueOrRows {
    const meta = this.entityOf(target);
    const column = meta?.properties[property as never] as EntityProperty | undefined;
    if (column?.kind === ReferenceKind.SCALAR) {
      if (column.formula) return { kind: 'value', sql: (row) => formulaSql(meta!, column, row) };
      if (column.persist !== false && column.fieldNames?.length === 1 && !column.lazy) {
        const [field] = column.fieldNames;
        return { kind: 'value', sql: (row) => `${row}."${field}"`, columnType: column.columnTypes?.[0] };
      }
    }
    if (column?.kind === ReferenceKind.MANY_TO_ONE) return this.relationOf(type, property);
    if (!meta && this.forms.isRowType(target)) return { kind: 'value', sql: (row) => `${row}."${property}"` };
    throw new NotCompilable(`no SQL for ${type.name}.${property}`);
  }

  /** The row a single-column many-to-one relation points to, joined on the related primary key. */
  private relationOf(type: GraphQLObjectType, name: string): Extract<ValueOrRows, { kind: 'rows' }> {
    const property = this.entityOf(this.classOf(type))?.properties[name as never] as
      EntityProperty | undefined;
    const related =
      property?.kind === ReferenceKind.MANY_TO_ONE ? this.metadata.find(property.type) : undefined;
    const [primaryKey] = related?.primaryKeys ?? [];
    const keyColumns = related?.properties[primaryKey as never]?.fieldNames ?? [];
    if (
      !related ||
      related.primaryKeys.length !== 1 ||
      keyColumns.length !== 1 ||
      property?.fieldNames?.length !== 1
    )
      throw new NotCompilable(`${type.name}.${name} is not a single-column many-to-one relation`);
    const [column] = property.fieldNames;
    const [key] = keyColumns;
    return {
      kind: 'rows',
      rows: (row, alias) => ({
        from: `"${related.tableName}" ${alias}`,
        where: `${alias}."${key}" = ${row}."${column}"`,
      }),
    };
  }
}

const where = (source: RowSource): string => (source.where ? ` where ${source.where}` : '');

const isConditional = (directive: DirectiveNode): boolean =>
  directive.name.value === GraphQLSkipDirective.name || directive.name.value === GraphQLIncludeDirective.name;

/**
 * The variables a plan depends on the values of: what `@skip` and `@include` read
 * anywhere in `document`, and the arguments that choose a page root's listed entity.
 */
function planVariables(document: DocumentNode, forms: SqlForms): string[] {
  const names = new Set<string>();
  visit(document, {
    Directive(directive) {
      if (!isConditional(directive)) return;
      for (const argument of directive.arguments ?? []) {
        if (argument.value.kind === Kind.VARIABLE) names.add(argument.value.name.value);
      }
    },
    Field(field) {
      const root = forms.rootOf(field.name.value);
      const choice = root?.kind === 'page' ? root.item : root?.type;
      if (!choice || typeof choice === 'function') return;
      const { argument: choosing } = choice;
      const argument = field.arguments?.find(({ name }) => name.value === choosing);
      if (argument?.value.kind === Kind.VARIABLE) names.add(argument.value.name.value);
    },
  });
  return [...names];
}

/** The entity a root lists or answers with for these argument values (see ItemChoice). */
function chosenEntity(item: AnyClass | ItemChoice, args: () => Record<string, unknown>): AnyClass {
  if (typeof item === 'function') return item;
  const value = args()[item.argument];
  const chosen =
    typeof value === 'string' && Object.hasOwn(item.items, value) ? item.items[value] : undefined;
  if (!chosen) throw new NotCompilable(`no listed entity for ${item.argument}`);
  return chosen;
}

/** The query's root fields by response key, in order, each with its node, definition and SQL root. */
function rootsOf(compiler: Compiler, operation: OperationDefinitionNode) {
  if (operation.operation !== 'query') throw new NotCompilable('not a query');
  if (operation.directives?.length) throw new NotCompilable('operation directives');
  const queryType = compiler.schema.getQueryType()!;
  const fields = compiler.collect(queryType, operation.selectionSet);
  if (fields.size === 0) throw new NotCompilable('no root field');
  return [...fields].map(([key, nodes]) => {
    const [node] = nodes;
    // The same field twice under one key merges sub-selections; its arguments must agree (left to execution).
    if (nodes.length !== 1) throw new NotCompilable('one node per root key');
    const root = compiler.forms.rootOf(node.name.value);
    const definition = queryType.getFields()[node.name.value];
    const type = definition && getNamedType(definition.type);
    if (!root || !node.selectionSet || !(isObjectType(type) || isAbstractType(type)))
      throw new NotCompilable('no SQL root');
    // A root's own `@Authorized()` the compiled statement applies where the root says so.
    const applied =
      root.authentication === 'required' && fieldIndex().onlyAuthenticatedQuery(node.name.value);
    if (fieldIndex().guardedQuery(node.name.value) && !applied)
      throw new NotCompilable('a root with its own guard');
    // The arguments' values as the plan's variables give them (a page root's listed entity may depend on one).
    const args = () => {
      try {
        return getArgumentValues(definition, node, compiler.variables);
      } catch (error) {
        if (error instanceof GraphQLError) throw new NotCompilable(`arguments: ${error.message}`);
        throw error;
      }
    };
    return { key, node, root, definition, type, selectionSet: node.selectionSet, args };
  });
}

/**
 * Whether a root field's arguments pass the checks its resolver's arguments meet
 * (type-graphql's `validateFn`), which may also normalize an input object in place.
 */
function argumentsPass(rootField: string, args: Record<string, unknown>): boolean {
  const query = getMetadataStorage().queries.find((each) => each.schemaName === rootField);
  if (!query) return false;
  for (const param of query.params ?? []) {
    if (param.kind !== 'arg' && param.kind !== 'args') continue;
    const type = param.getType();
    let value: unknown;
    if (param.kind === 'args') value = Object.assign(new (type as ClassType)(), args);
    else {
      value = args[param.name];
      // An input object is checked by its request schema; one without is not compiled.
      if (typeof value === 'object' && value !== null && !inputSpecOf(type)) return false;
    }
    try {
      validateArguments(value, type, { args });
    } catch {
      return false;
    }
  }
  return true;
}

/** A root field compiled: how its statement is bound, and the length of the SQL it holds for that. */
interface CompiledRoot {
  bind: Binder;
  sqlLength: number;
}

/**
 * The statement of one request, from its arguments; it returns `json`, and for a list
 * with a subject also `found` and `refused` (see SqlSubject), answered with `notFound`.
 */
type Binder = (ctx: RequestContext, args: Record<string, unknown>) => Promise<BoundStatement>;

interface BoundStatement {
  statement: SqlFragment;
  notFound: ErrorCode;
  /** The error when the subject is found but no row is (else `notFound`). */
  empty?: ErrorCode;
  /** The error when the subject is found but its row withheld, once the scopes are checked (see SqlRoot). */
  withheld?: ErrorCode;
  /** Scopes checked once the statement found its subject. */
  scopes?: readonly string[];
}

/** The one-row CTE holding a list's subject (its reference and refusal). */
const SUBJECT = 'subject';

/**
 * One row by its arguments: `select <json> from <rows> limit 1`, or a list root's rows
 * as one JSON array; with a subject, the row found through it, and the subject's `found`
 * and `refused` beside.
 */
function compileOne(
  compiler: Compiler,
  root: Extract<SqlRoot, { kind: 'one' | 'list' }>,
  definition: GraphQLField<unknown, unknown>,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  chooser: () => Record<string, unknown>,
): CompiledRoot {
  const target = chosenEntity(root.type, chooser);
  const objectType = compiler.memberFor(type, target);
  if (!objectType) throw new NotCompilable('root type');
  // Only the arguments the rows read are bound, each as a column of the request's CTE.
  const columns: { name: string; sqlType: string }[] = [];
  const args: Record<string, string> = {};
  // The argument that chooses the entity is the same for every run of this plan (each of
  // its values compiles a plan of its own), so the rows read its value as a literal.
  const choosing = typeof root.type === 'function' ? undefined : root.type.argument;
  for (const arg of definition.args) {
    Object.defineProperty(args, arg.name, {
      get: () => {
        if (arg.name === choosing) return `'${String(chooser()[choosing])}'`;
        const sqlType = ARGUMENT_TYPES.get(getNullableType(arg.type));
        if (!sqlType) throw new NotCompilable(`argument ${arg.name}`);
        if (!columns.some(({ name }) => name === arg.name)) columns.push({ name: arg.name, sqlType });
        return `(select "${arg.name}" from ${REQUEST})`;
      },
    });
  }
  const alias = compiler.alias();
  // A row type has no table: its rows name their own source.
  const table = compiler.forms.isRowType(target) ? '' : compiler.tableOf(target);
  const source = root.rows(alias, args, `(select reference from ${SUBJECT})`, table, compiler.request);
  const built = compiler.object(objectType, selectionSet, alias);
  const rows = `from ${source.from}${where(source)}`;
  const json =
    root.kind === 'list'
      ? `coalesce(json_agg(${built}${source.orderBy ? ` order by ${source.orderBy}` : ''}), '[]'::json)`
      : built;
  const found = root.kind === 'list' ? rows : `${rows} limit 1`;
  const select = root.subject
    ? `select (select ${json} ${found})::text as json,
        exists (select 1 from ${SUBJECT}) as found, (select refused from ${SUBJECT}) as refused`
    : `select ${json}::text as json ${found}`;
  const requested = requestColumns(compiler.used);
  const cteColumns = [...requested.columns, ...columns.map((c) => `?::${c.sqlType} as "${c.name}"`)];
  const request = cteColumns.length > 0 ? `${REQUEST} as (select ${cteColumns.join(', ')})` : undefined;
  const texts = new StatementTexts(compiler.texts);
  return {
    sqlLength: select.length + (request?.length ?? 0),
    bind: async (ctx, values) => {
      const authenticated = authenticate(ctx, root);
      if (authenticated) await authenticated;
      const bound = root.values?.(values) ?? values;
      // No await where the statement reads none of the request's values (#16): the hot path stays synchronous.
      const requestValues = requested.columns.length > 0 ? await requested.values(ctx) : [];
      const params = [...requestValues, ...columns.map(({ name }) => bound[name] ?? null)];
      const subject = root.subject && (await root.subject(values, ctx));
      const ctes = [
        ...(request ? [sql(request, ...params)] : []),
        ...(subject ? [concatSql(`${SUBJECT} as (`, subject.select, ')')] : []),
      ];
      const statement = texts.concat(
        subject?.select.sql ?? '',
        ...ctes.flatMap((cte, i) => [i === 0 ? 'with ' : ', ', cte]),
        ctes.length > 0 ? ' ' : '',
        select,
      );
      const notFound = subject?.notFound ?? root.notFound ?? 'system:internal_error';
      return { statement, notFound, empty: root.notFound, withheld: root.withheld, scopes: root.scopes };
    },
  };
}

/**
 * A page's selection as JSON over its `page` row (the pagination's columns), with each
 * response key of `list` (`a: list { slug } b: list { title_en }`) an item JSON of its
 * own over `item`, a row of the listed entity (shown as `itemClass`).
 */
function pageJson(
  compiler: Compiler,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  itemClass: AnyClass,
  item: string,
): { built: string; lists: string[] } {
  const lists: string[] = [];
  const built = compiler.build(compiler.collect(type, selectionSet), (key, nodes) => {
    const name = nodes[0].name.value;
    const definition = type.getFields()[name];
    const named = definition && getNamedType(definition.type);
    if (name === '__typename') return `'${type.name}'`;
    if (name === 'pagination' && isObjectType(named) && compiler.classOf(named) === Pagination)
      return compiler.object(named, Compiler.selections(nodes), 'page');
    // A union's items are all of the member the listed entity is.
    const itemType = name === 'list' ? compiler.memberFor(named, itemClass) : undefined;
    if (itemType) {
      lists.push(compiler.object(itemType, Compiler.selections(nodes), item));
      return `page.list_${lists.length - 1}`;
    }
    throw new NotCompilable(`page field ${key}`);
  });
  return { built, lists };
}

/** A page of the rows the root's list query selects, in its order, with the exact total, as `{pagination, list}`. */
function compilePage(
  compiler: Compiler,
  root: Extract<SqlRoot, { kind: 'page' }>,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  args: () => Record<string, unknown>,
): CompiledRoot {
  if (!isObjectType(type)) throw new NotCompilable('a page is an object type');
  const listed = chosenEntity(root.item, args);
  const table = compiler.tableOf(listed);
  const item = compiler.alias();
  const { built, lists } = pageJson(compiler, type, selectionSet, root.view ?? listed, item);
  const requested = requestColumns(compiler.used);
  const texts = new StatementTexts(compiler.texts);
  return {
    sqlLength: built.length + lists.reduce((sum, list) => sum + list.length, 0),
    bind: async (ctx, args) => {
      const authenticated = authenticate(ctx, root);
      if (authenticated) await authenticated;
      const subject = root.subject && (await root.subject(args, ctx));
      const query = await root.query(ctx, args, sql(`(select reference from ${SUBJECT})`));
      const page = Number(args.page);
      const size = Number(args.size);
      if (!isPageNumber(page, PAGE_MAX) || !isPageNumber(size, SIZE_MAX))
        throw new Error(`page ${page} of size ${size} reached a compiled page unchecked`);
      const order = query.orderBy;
      const source = listSource(query);
      const window = pageWindowSql(page, size);
      const request =
        requested.columns.length > 0
          ? [sql(`${REQUEST} as (select ${requested.columns.join(', ')})`, ...(await requested.values(ctx)))]
          : [];
      const ctes = [...request, ...(subject ? [concatSql(`${SUBJECT} as (`, subject.select, ')')] : [])];
      // The page's references in order (an index walk that stops at the page's end),
      // joined to their rows, as each `list` key's JSON array.
      const listColumn = (itemJson: string, i: number) => [
        `, coalesce((select json_agg(${itemJson} order by listed.position) from (`,
        `select ${query.reference} as reference, row_number() over (order by `,
        order,
        ') as position from ',
        source,
        ' where ',
        query.where,
        ' order by ',
        order,
        window,
        `) listed join ${table} ${item} on ${item}.reference = listed.reference), '[]'::json) as list_${i}`,
      ];
      // The exact total counted on its own (a window count would read and keep every
      // row), then the lists. `offset 0` keeps the page row from being inlined, which
      // would count once per use.
      const statement = texts.concat(
        [subject?.select.sql, query.reference, source.sql, query.where.sql, order.sql, window.sql].join('\0'),
        ...ctes.flatMap((cte, i) => [i === 0 ? 'with ' : ', ', cte]),
        ctes.length > 0 ? ' ' : '',
        `select ${built}::text as json`,
        subject
          ? `, exists (select 1 from ${SUBJECT}) as found, (select refused from ${SUBJECT}) as refused`
          : '',
        ' from (select (select count(*) from ',
        source,
        ' where ',
        query.where,
        sql(`) as total, ?::integer as size, ?::integer as page`, size, page),
        ...lists.flatMap(listColumn),
        ' offset 0) page',
      );
      return { statement, notFound: subject?.notFound ?? 'system:internal_error', scopes: root.scopes };
    },
  };
}

/**
 * The root's authentication before anything else: required (its `@Authorized()`), or
 * optional where it has scopes (the caller resolved, a deleted account refused); nothing
 * to wait for otherwise, so that the hot anonymous reads stay free of a promise.
 */
function authenticate(ctx: RequestContext, root: SqlRoot): Promise<unknown> | undefined {
  if (root.authentication === 'required') return ctx.auth.required();
  if (root.scopes) return ctx.auth.optional();
  return undefined;
}

const isPageNumber = (value: number, max: number): boolean =>
  Number.isSafeInteger(value) && value >= 1 && value <= max;

/**
 * `limit <size> offset <n>`, the size written out and the first page's offset too.
 * PostgreSQL plans a prepared statement for its parameters' values each time unless
 * a generic plan is as cheap; with a parameter for the limit or offset it cannot tell,
 * so it would re-plan every request (about a third of a page's time in PostgreSQL).
 * With both known, it keeps one plan per connection. Sizes are few (1 to 100) and so
 * are the texts; later pages keep their offset a parameter and are planned each time.
 */
function pageWindowSql(page: number, size: number): SqlFragment {
  return page === 1 ? sql(` limit ${size} offset 0`) : sql(` limit ${size} offset ?`, (page - 1) * size);
}

/** A root field compiled, with its response key, node and definition. */
type CompiledRootField = {
  key: string;
  node: FieldNode;
  definition: GraphQLField<unknown, unknown>;
} & CompiledRoot;

/**
 * Each root field of `operation` compiled, or undefined when a part has no SQL form. Apart
 * from the plan: no closure of the plan may hold the compiler, whose variables are those
 * of the request that compiled it (a large argument, say), and whose look-ups are large.
 */
function compileRoots(
  compiler: Compiler,
  operation: OperationDefinitionNode,
): CompiledRootField[] | undefined {
  try {
    return rootsOf(compiler, operation).map(({ key, node, root, definition, type, selectionSet, args }) => {
      // Each root's statement binds the caller only if its own mappings read it.
      compiler.startRoot(root);
      return {
        key,
        node,
        definition,
        ...(root.kind !== 'page'
          ? compileOne(compiler, root, definition, type, selectionSet, args)
          : compilePage(compiler, root, type, selectionSet, args)),
      };
    });
  } catch (error) {
    if (error instanceof NotCompilable) return undefined;
    throw error;
  }
}

/**
 * The operation as one SQL statement per root field, or undefined when a part of it has
 * no SQL form (it then runs through its resolvers, which stay the definition of every
 * field). `variables` decide what `@skip` and `@include` keep.
 */
export function compileSqlPlan(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  metadata: MetadataStorage,
  variables: Record<string, unknown> = {},
  texts: TextAccount = {},
): SqlPlan | undefined {
  const roots = compileRoots(new Compiler(schema, document, metadata, variables, texts), operation);
  if (!roots) return undefined;
  /** Each root's statement, once every root's arguments passed their checks. */
  const statements = async (ctx: RequestContext, variables: Record<string, unknown>) => {
    const args = roots.map(({ definition, node }) => getArgumentValues(definition, node, variables));
    if (!roots.every(({ definition }, i) => argumentsPass(definition.name, args[i]))) return undefined;
    return Promise.all(roots.map(({ bind }, i) => bind(ctx, args[i])));
  };
  return {
    keys: roots.map(({ key }) => key),
    bytes: planBytes(roots.map(({ sqlLength }) => sqlLength)),
    async statement(ctx, variables) {
      const [first] = (await statements(ctx, variables)) ?? [];
      if (!first) throw new Error('the arguments do not pass their checks');
      return first.statement;
    },
    async run(ctx, variables) {
      const bound = await statements(ctx, variables);
      if (!bound) return undefined;
      return runAll(ctx, bound);
    },
  };
}

/**
 * Runs each root's statement; undefined when one met a stored value a scalar refuses
 * (execution then reports it as the resolvers do).
 */
async function runAll(ctx: RequestContext, bound: BoundStatement[]): Promise<string[] | undefined> {
  try {
    return await Promise.all(
      bound.map(async ({ statement, notFound, empty, withheld, scopes }) => {
        const [row] = await queryRows<{ json: string | null; found?: boolean; refused?: ErrorCode | null }>(
          ctx.sharedEm,
          statement,
          ctx.readConnectionType,
        );
        if (!row || row.found === false) throw new AppError(notFound);
        if (row.refused) throw new AppError(row.refused);
        if (row.json === null && !withheld) throw new AppError(empty ?? notFound);
        if (scopes) await ctx.auth.optional(scopes);
        if (row.json === null) throw new AppError(withheld ?? notFound);
        return row.json;
      }),
    );
  } catch (error) {
    if (!isUnserializable(error)) throw error;
    ctx.log.warn({ err: error }, 'a stored value its scalar refuses; executed instead');
    return undefined;
  }
}

/** The error `unserializable_value` raises (src/db/migrations). */
const isUnserializable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'GQ001';

/** Told of heap bytes a compiled operation comes to hold (positive) or lets go (negative). */
export type HeapReport = (bytes: number) => void;

/**
 * The heap a compiled plan holds, from the lengths of its roots' SQL, at or above what
 * `npm run measure:heap` measures on plans of one to 25 root fields: the pieces a
 * statement is built from take about half a byte a character of its SQL (they are ropes
 * of shared small strings until a run flattens them), each root's closures and look-ups
 * a few kilobytes more. The texts a run keeps are reported as they are kept.
 */
const PLAN_BYTES = { base: 6_000, perRoot: 5_000, perSqlCharacter: 0.5 };

function planBytes(sqlLengths: readonly number[]): number {
  const { base, perRoot, perSqlCharacter } = PLAN_BYTES;
  return Math.ceil(base + sqlLengths.reduce((sum, length) => sum + perRoot + perSqlCharacter * length, 0));
}

/** An operation whose selection has no SQL form holds only the note that it has none. */
const NO_PLAN_BYTES = 64;

/** Variants of one operation's plan are kept for this many combinations of `@skip`/`@include` variables. */
const MAX_VARIANTS = 16;

/**
 * A query operation's plans: one, or one per combination of the values of the variables
 * that `@skip` and `@include` read, compiled on first use.
 */
export class CompiledOperation {
  private readonly conditions: string[];
  private readonly plans = new Map<string, SqlPlan | null>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly document: DocumentNode,
    private readonly operation: OperationDefinitionNode,
    private readonly metadata: MetadataStorage,
    /**
     * Where the heap its plans take is accounted for: told of each plan and each statement
     * text kept (src/graphql/document-cache.ts counts them with the document), or a store
     * of statement texts bounded for many operations together (the REST door's).
     */
    private readonly memory: TextAccount = {},
  ) {
    this.conditions = planVariables(document, sqlFormsOf(schema));
  }

  /** The plan for these (coerced) variables; undefined when the operation has no SQL form. */
  planFor(variables: Record<string, unknown>): SqlPlan | undefined {
    // JSON tells a null from the string "null", and an absent variable from both.
    const key = this.conditions
      .map((name) => (Object.hasOwn(variables, name) ? JSON.stringify(variables[name]) : ''))
      .join(',');
    let plan = this.plans.get(key);
    if (plan === undefined) {
      if (this.plans.size >= MAX_VARIANTS) return undefined;
      plan =
        compileSqlPlan(this.schema, this.document, this.operation, this.metadata, variables, this.memory) ??
        null;
      this.plans.set(key, plan);
      this.memory.onHeld?.((plan?.bytes ?? NO_PLAN_BYTES) + key.length);
    }
    return plan ?? undefined;
  }
}

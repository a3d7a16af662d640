import { createHash } from 'node:crypto';
import { type EntityProperty, type MetadataStorage, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isListType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  specifiedScalarTypes,
  valueFromASTUntyped,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { AppError } from '../../common/errors/app-error';
import type { RequestContext } from '../../context';
import { declaredSqlField, isSqlRowType, type RowSource, type SqlField, sqlRootOf } from './fields';

/**
 * An operation compiled to one SQL statement that returns its root field's JSON, built
 * in PostgreSQL: the same fields, names and order as graphql-js would produce, read
 * through the mappings of ./fields.ts and the entities' columns.
 */
export interface SqlPlan {
  readonly sql: string;
  run(ctx: RequestContext, variables: Record<string, unknown>): Promise<string>;
}

/** A part of the selection this compiler cannot express; the operation then executes normally. */
class NotCompilable extends Error {}

type AnyClass = abstract new (...args: never[]) => unknown;

/** JSON objects are built with json_build_object, which takes at most 100 arguments. */
const MAX_KEYS = 50;

class Compiler {
  private aliases = 0;
  readonly params: ((variables: Record<string, unknown>) => unknown)[] = [];
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly classes = new Map(
    getMetadataStorage().objectTypes.map((type) => [type.name, type.target]),
  );

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly metadata: MetadataStorage,
  ) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
  }

  alias(): string {
    this.aliases += 1;
    return `t${this.aliases}`;
  }

  /** A placeholder for an argument: a variable's value or a literal, bound per request. */
  argument(node: FieldNode, name: string): string {
    const given = node.arguments?.find((argument) => argument.name.value === name);
    if (!given) throw new NotCompilable(`argument ${name} is not given`);
    const value = given.value;
    this.params.push((variables) => valueFromASTUntyped(value, variables));
    return `$${this.params.length}`;
  }

  classOf(type: GraphQLObjectType): AnyClass {
    const target = this.classes.get(type.name);
    if (!target) throw new NotCompilable(`no class for ${type.name}`);
    return target as AnyClass;
  }

  /** The fields of a selection set by response name, in order, fragments expanded and merged. */
  collect(type: GraphQLObjectType, set: SelectionSetNode, into = new Map<string, FieldNode[]>()) {
    for (const selection of set.selections) {
      if (selection.directives?.length) throw new NotCompilable('directives');
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        into.set(key, [...(into.get(key) ?? []), selection]);
        continue;
      }
      const fragment =
        selection.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(selection.name.value) : selection;
      if (!fragment) throw new NotCompilable('unknown fragment');
      if (fragment.typeCondition && fragment.typeCondition.name.value !== type.name)
        throw new NotCompilable('type conditions other than the exact type');
      this.collect(type, fragment.selectionSet, into);
    }
    return into;
  }

  /** `json_build_object(...)` of the selection on a row bound to `row`. */
  object(type: GraphQLObjectType, set: SelectionSetNode, row: string): string {
    const fields = this.collect(type, set);
    if (fields.size > MAX_KEYS) throw new NotCompilable('too many fields');
    const pairs = [...fields].map(([key, nodes]) => `'${key}', ${this.field(type, nodes, row)}`);
    return `json_build_object(${pairs.join(', ')})`;
  }

  private field(type: GraphQLObjectType, nodes: FieldNode[], row: string): string {
    const [node] = nodes;
    const name = node.name.value;
    if (name === '__typename') return `'${type.name}'`;
    const definition = type.getFields()[name];
    if (!definition || definition.args.length > 0) throw new NotCompilable(`field ${type.name}.${name}`);
    const mapping = this.mappingOf(type, name);
    const named = getNamedType(definition.type);
    if (mapping.kind === 'value') {
      if (!isScalarType(named)) throw new NotCompilable(`${type.name}.${name} is not a scalar`);
      const convert = specifiedScalarTypes.includes(named)
        ? (sql: string) => sql
        : (named.extensions.sql as ((sql: string) => string) | undefined);
      if (!convert) throw new NotCompilable(`scalar ${named.name} has no SQL form`);
      return convert(mapping.sql(row));
    }
    if (!isObjectType(named)) throw new NotCompilable(`${type.name}.${name} is not an object type`);
    const selections: SelectionSetNode = {
      kind: Kind.SELECTION_SET,
      selections: nodes.flatMap((each) => each.selectionSet?.selections ?? []),
    };
    const alias = this.alias();
    const source = mapping.rows(row, alias);
    const built = this.object(named, selections, alias);
    if (isListType(getNullableType(definition.type))) {
      const order = source.orderBy ? ` order by ${source.orderBy}` : '';
      return `coalesce((select json_agg(${built}${order}) from ${source.from}${where(source)}), '[]'::json)`;
    }
    return `(select ${built} from ${source.from}${where(source)} limit 1)`;
  }

  /** A declared mapping, else the entity's column (or formula) of the same name, else a row type's column. */
  private mappingOf(type: GraphQLObjectType, name: string): SqlField {
    const target = this.classOf(type);
    const declared = declaredSqlField(target, name);
    if (declared) return declared;
    const meta = this.metadata.find(target.name);
    const property = meta?.properties[name as never] as EntityProperty | undefined;
    if (property?.kind === ReferenceKind.SCALAR) {
      const { formula } = property;
      if (formula) {
        const table = meta!.tableName;
        return {
          kind: 'value',
          sql: (row) =>
            formula({ alias: row, name: table, qualifiedName: table, toString: () => row }, {} as never),
        };
      }
      if (property.persist !== false && property.fieldNames?.length === 1 && !property.lazy) {
        const column = property.fieldNames[0];
        return { kind: 'value', sql: (row) => `${row}."${column}"` };
      }
    }
    if (!meta && isSqlRowType(target)) return { kind: 'value', sql: (row) => `${row}."${name}"` };
    throw new NotCompilable(`no SQL for ${type.name}.${name}`);
  }

  /** The root field, as a statement returning its JSON text (no row: not found). */
  root(operation: OperationDefinitionNode): { sql: string; notFound: AppError['code'] } {
    if (operation.operation !== 'query') throw new NotCompilable('not a query');
    const queryType = this.schema.getQueryType()!;
    const fields = this.collect(queryType, operation.selectionSet);
    if (fields.size !== 1) throw new NotCompilable('one root field');
    const [[, nodes]] = [...fields];
    if (nodes.length !== 1) throw new NotCompilable('one root field node');
    const [node] = nodes;
    const root = sqlRootOf(node.name.value);
    const definition = queryType.getFields()[node.name.value];
    const named = definition && getNamedType(definition.type);
    if (!root || !node.selectionSet || !isObjectType(named) || this.classOf(named) !== root.type)
      throw new NotCompilable('no SQL root');
    const args = Object.fromEntries(definition.args.map((arg) => [arg.name, this.argument(node, arg.name)]));
    const alias = this.alias();
    const source = root.rows(alias, args);
    const built = this.object(named, node.selectionSet, alias);
    return {
      sql: `select ${built}::text as json from ${source.from}${where(source)} limit 1`,
      notFound: root.notFound,
    };
  }
}

const where = (source: RowSource): string => (source.where ? ` where ${source.where}` : '');

/** Runs a statement as a named prepared statement (planned once per connection) on the entity manager's pool. */
async function queryPrepared(
  em: EntityManager,
  name: string,
  text: string,
  values: unknown[],
): Promise<{ json: string }[]> {
  const { client } = (em.getConnection() as PostgreSqlConnection).getKnex();
  const started = Date.now();
  const connection = (await client.acquireConnection()) as {
    query(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: { json: string }[] }>;
  };
  try {
    const { rows } = await connection.query({ name, text, values });
    // Logged like MikroORM's own statements (the tests count them).
    em.config
      .getLogger()
      .logQuery({ query: text, took: Date.now() - started, results: rows.length, level: 'info' });
    return rows;
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * The operation as one SQL statement, or undefined when a part of it has no SQL form
 * (it then runs through its resolvers, which stay the definition of every field).
 */
export function compileSqlPlan(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  metadata: MetadataStorage,
): SqlPlan | undefined {
  const compiler = new Compiler(schema, document, metadata);
  let compiled: { sql: string; notFound: AppError['code'] };
  try {
    compiled = compiler.root(operation);
  } catch (error) {
    if (error instanceof NotCompilable) return undefined;
    throw error;
  }
  const { sql, notFound } = compiled;
  const name = `plan_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
  const params = compiler.params;
  return {
    sql,
    async run(ctx, variables) {
      const rows = await queryPrepared(
        ctx.em,
        name,
        sql,
        params.map((param) => param(variables)),
      );
      if (!rows[0]) throw new AppError(notFound);
      return rows[0].json;
    },
  };
}

import {
  getNamedType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
} from 'graphql';

export type OperationKind = 'query' | 'mutation';

/** A document that selects everything a root field can reach, and what it selects. */
export interface FullSelection {
  /** The operation, its root arguments passed as variables of the same names. */
  document: string;
  /** `Type.field` of every field the document selects, on any type. */
  selected: ReadonlySet<string>;
}

/**
 * Selects every field of every object type reachable from one root field. Each type is
 * expanded fully at its first occurrence on a path; where it occurs again below itself
 * (`Comment.replies`, `Manga.read.content`), it gets only its scalar and enum fields,
 * which ends every cycle. Unions and interfaces get an inline fragment for each possible
 * type, and every object selection asks for `__typename`, so that an answer can be read
 * back type by type (`FieldObservations`). The root field takes the arguments named in
 * `rootArguments`, as variables; other optional arguments keep their defaults, and a
 * required argument without a value is an error here rather than a refused document.
 */
export function fullSelection(
  schema: GraphQLSchema,
  operation: OperationKind,
  rootName: string,
  rootArguments: readonly string[],
): FullSelection {
  const root = rootFieldOf(schema, operation, rootName);
  const unknown = rootArguments.filter((name) => !root.args.some((arg) => arg.name === name));
  if (unknown.length > 0) throw new Error(`${rootName} has no argument ${unknown.join(', ')}`);
  const missing = root.args.filter((arg) => isRequiredArgument(arg) && !rootArguments.includes(arg.name));
  if (missing.length > 0) {
    throw new Error(
      `${rootName}: no value for required argument ${missing.map((arg) => arg.name).join(', ')}`,
    );
  }

  const selected = new Set<string>();
  const given = root.args.filter((arg) => rootArguments.includes(arg.name));
  const variables = given.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = given.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const body = selectionOf(schema, getNamedType(root.type), new Set(), selected);
  const document = `${operation} EveryField${variables ? `(${variables})` : ''} { ${rootName}${passed ? `(${passed})` : ''}${body} }`;
  return { document, selected };
}

function rootFieldOf(
  schema: GraphQLSchema,
  operation: OperationKind,
  rootName: string,
): GraphQLField<unknown, unknown> {
  const rootType = operation === 'query' ? schema.getQueryType() : schema.getMutationType();
  const root = rootType?.getFields()[rootName];
  if (!root) throw new Error(`${operation} has no root field ${rootName}`);
  return root;
}

/** ` { … }` for a composite type, '' for a leaf. */
function selectionOf(
  schema: GraphQLSchema,
  type: GraphQLNamedType,
  expanding: ReadonlySet<string>,
  selected: Set<string>,
): string {
  if (isLeafType(type)) return '';
  if (isAbstractType(type)) {
    const fragments = schema
      .getPossibleTypes(type)
      .map((member) => `... on ${member.name}${objectSelection(schema, member, expanding, selected)}`);
    return ` { __typename ${fragments.join(' ')} }`;
  }
  if (isObjectType(type)) return objectSelection(schema, type, expanding, selected);
  throw new Error(`${type.name} cannot be selected`);
}

function objectSelection(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  expanding: ReadonlySet<string>,
  selected: Set<string>,
): string {
  const recurring = expanding.has(type.name);
  const inside = new Set(expanding).add(type.name);
  const parts = ['__typename'];
  for (const field of Object.values(type.getFields())) {
    const fieldType = getNamedType(field.type);
    if (recurring && !isLeafType(fieldType)) continue;
    refuseRequiredArguments(type, field);
    selected.add(`${type.name}.${field.name}`);
    parts.push(`${field.name}${selectionOf(schema, fieldType, inside, selected)}`);
  }
  return ` { ${parts.join(' ')} }`;
}

/** Nested fields keep their optional arguments' defaults; a required one has no generic value. */
function refuseRequiredArguments(type: GraphQLObjectType, field: GraphQLField<unknown, unknown>): void {
  const required = field.args.filter(isRequiredArgument);
  if (required.length > 0) {
    throw new Error(
      `${type.name}.${field.name} requires ${required.map((arg) => arg.name).join(', ')}: give the generator a value for it`,
    );
  }
}

/**
 * The root's own items that are missing from its answer: the root itself when it is an
 * empty list, else each of its answer's lists of objects that is empty (a page's `list`,
 * a franchise's `anime`, a manga's `authors`). A root answered only with empty lists
 * has not run the resolvers of the things it serves.
 */
export function emptyItemLists(schema: GraphQLSchema, rootName: string, answer: unknown): string[] {
  if (Array.isArray(answer)) return answer.length === 0 ? [rootName] : [];
  if (typeof answer !== 'object' || answer === null) return [];
  const record = answer as Record<string, unknown>;
  const type = schema.getType(String(record.__typename));
  if (!isObjectType(type)) return [];
  return Object.values(type.getFields())
    .filter((field) => {
      const value = record[field.name];
      const itemsAreObjects = !isLeafType(getNamedType(field.type));
      return itemsAreObjects && Array.isArray(value) && value.length === 0;
    })
    .map((field) => `${rootName}.${field.name}`);
}

/** What answers showed of each `Type.field`: a value (a non-empty list, for lists), and null. */
export class FieldObservations {
  private readonly withValue = new Set<string>();
  private readonly withNull = new Set<string>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** Records every field of a root field's answer to a `fullSelection` document. */
  observeRoot(operation: OperationKind, rootName: string, answer: unknown): void {
    this.observe(answer, getNamedType(rootFieldOf(this.schema, operation, rootName).type));
  }

  private observe(value: unknown, type: GraphQLNamedType): void {
    if (Array.isArray(value)) {
      value.forEach((item) => this.observe(item, type));
      return;
    }
    if (typeof value !== 'object' || value === null || isLeafType(type)) return;
    const record = value as Record<string, unknown>;
    // An abstract type's answer names its member; an object type's names itself.
    const concrete = this.schema.getType(String(record.__typename));
    if (!isObjectType(concrete)) throw new Error(`an answer of ${type.name} has no known __typename`);
    const fields = concrete.getFields();
    for (const [key, child] of Object.entries(record)) {
      if (key === '__typename') continue;
      const field = `${concrete.name}.${key}`;
      if (child === null) this.withNull.add(field);
      else if (!Array.isArray(child) || child.length > 0) this.withValue.add(field);
      this.observe(child, getNamedType(fields[key].type));
    }
  }

  /** Selected fields never answered with a value (or, for lists, never with an item). */
  neverValued(selected: Iterable<string>): string[] {
    return [...selected].filter((field) => !this.withValue.has(field)).sort();
  }

  /** Selected nullable fields of object, union or interface type that never answered null. */
  neverNull(selected: Iterable<string>): string[] {
    return [...selected]
      .filter((field) => {
        const [typeName, fieldName] = field.split('.');
        const type = this.schema.getType(typeName);
        const definition = isObjectType(type) ? type.getFields()[fieldName] : undefined;
        if (!definition || isNonNullType(definition.type) || isListType(definition.type)) return false;
        return !isLeafType(getNamedType(definition.type)) && !this.withNull.has(field);
      })
      .sort();
  }
}

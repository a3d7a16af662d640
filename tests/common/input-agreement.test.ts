import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  type GraphQLInputField,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  type GraphQLSchema,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isRequiredInputField,
  isScalarType,
} from 'graphql';
import { type ClassType, getMetadataStorage } from 'type-graphql';
import { registeredInputSpecs } from '../../src/common/validation/input-specs';
import { checkObject, type JsonSchema, type ObjectSpec } from '../../src/common/validation/json-schema';
import {
  booleanField,
  enumArray,
  enumValue,
  integerField,
  nullableEnumValue,
  sortField,
} from '../../src/common/validation/schemas';
import { buildAppSchema } from '../../src/schema';

/*
 * Issue 24, part 3: until each input field is declared once, every GraphQL input type
 * and the JSON Schema of its REST body (`registerInputSpec`) must describe the same
 * fields. Both doors check a request with the spec (src/common/validation/arguments.ts),
 * so the rule the codebase states where inputs are declared (catalog-list.inputs.ts,
 * collection.inputs.ts, list-entry.types.ts) is that **a GraphQL input type is at least
 * as permissive as its spec**: GraphQL must accept every value the spec accepts, or a
 * body REST takes would be refused by GraphQL's coercion; where GraphQL is looser, the
 * spec refuses the value for both doors with the same error. So this test reports:
 * - a field in one declaration and not in the other;
 * - a field GraphQL requires (non-null without a default) that the spec lets be left
 *   out; the converse (CollectionInput's fields, nullable while the spec requires them)
 *   is the design, the spec carrying the requirement;
 * - a GraphQL default on a field the spec requires (GraphQL would fill in what REST
 *   refuses as missing), or a default the spec refuses;
 * - a value kind (null, boolean, integer, number, string, array, object) the spec
 *   accepts and the GraphQL type refuses; an input object nested in the spec is
 *   compared in turn, field by field;
 * - value lists: a spec `enum` must list exactly the values of the GraphQL type when
 *   that type has values, a real `GraphQLEnumType` or a value-list scalar whose
 *   description is `One of: a, b, c.`; a GraphQL `String` under a spec `enum` is the
 *   permissive rule again;
 * - what a field's GraphQL description states in a fixed form, where the spec states
 *   it in keywords: `a..b`, `at most n`, `at least n`, a quoted `^…$` pattern, and the
 *   `field:asc|desc` entries of a sort. Bounds a spec carries only inside a pattern
 *   (the cleaned texts of clients) are not compared.
 */

/** The input classes with a REST body (issue 24 counts 22). */
const EXPECTED_MINIMUM_REGISTRATIONS = 22;

/** What a JSON value is, as far as GraphQL input coercion tells them apart. */
type JsonKind = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' | 'any';

/** One form of value a JSON Schema accepts. */
type Alternative =
  | { kind: 'null' | 'boolean' | 'integer' | 'number' | 'any' }
  | { kind: 'string'; values?: readonly string[] }
  /** `elements`: the schemas an element may have to satisfy (`[]` for an empty array only). */
  | { kind: 'array'; elements: readonly JsonSchema[] }
  | { kind: 'object'; schema: JsonSchema };

/**
 * The JSON values each custom scalar of an input passes on to the spec. A scalar
 * missing here is reported, so that a new one is classified before it is compared.
 */
const SCALAR_KINDS: Readonly<Record<string, readonly JsonKind[] | 'any'>> = {
  String: ['string'],
  ID: ['string', 'integer'],
  Int: ['integer'],
  Float: ['integer', 'number'],
  Boolean: ['boolean'],
  // src/common/scalars/integer-input.scalar.ts: numbers and strings pass, the spec reads them.
  IntegerInput: ['integer', 'number', 'string'],
  JSON: 'any',
  JSONObject: ['object'],
  // src/catalog/catalog-list.inputs.ts: any array; the spec checks its two shapes.
  YearsOrSeasons: ['array'],
};

const KIND_NAMES: Readonly<Record<JsonKind, string>> = {
  null: 'null',
  boolean: 'booleans',
  integer: 'integers',
  number: 'fractional numbers',
  string: 'strings',
  array: 'arrays',
  object: 'objects',
  any: 'any value',
};

const JSON_KINDS = new Set<string>(Object.keys(KIND_NAMES));

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const numberAt = (schema: JsonSchema, keyword: string): number | undefined => {
  const value = schema[keyword];
  return typeof value === 'number' ? value : undefined;
};

const stringsAt = (schema: JsonSchema, keyword: string): string[] => {
  const value = schema[keyword];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

function kindOfValue(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return typeof value === 'object' ? 'object' : 'any';
}

/** The kinds `type` names, the kinds of the `enum` values without one, or undefined for neither. */
function declaredKinds(schema: JsonSchema): JsonKind[] | undefined {
  const { type } = schema;
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (names) return names.filter((name): name is JsonKind => JSON_KINDS.has(String(name)));
  if (Array.isArray(schema.enum)) return unique(schema.enum.map(kindOfValue));
  return undefined;
}

/** The schemas an element of an array schema may have to satisfy. */
function elementsOf(schema: JsonSchema): JsonSchema[] {
  if (numberAt(schema, 'maxItems') === 0) return [];
  const { items, additionalItems } = schema;
  if (Array.isArray(items)) {
    const tuple = items.filter(isSchema);
    if (additionalItems === false) return tuple;
    return [...tuple, isSchema(additionalItems) ? additionalItems : {}];
  }
  return [isSchema(items) ? items : {}];
}

/** Every form of value `schema` accepts (restrictions such as patterns and bounds aside). */
function alternativesOf(schema: JsonSchema): Alternative[] {
  const kinds = declaredKinds(schema);
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.filter(isSchema).flatMap(alternativesOf);
    return kinds
      ? branches.filter(
          ({ kind }) => kinds.includes(kind) || (kind === 'integer' && kinds.includes('number')),
        )
      : branches;
  }
  if (!kinds) return [{ kind: 'any' }];
  const values: unknown[] | undefined = Array.isArray(schema.enum) ? schema.enum : undefined;
  return kinds
    .filter((kind) => !values || values.some((value) => kindOfValue(value) === kind))
    .map((kind): Alternative => {
      switch (kind) {
        case 'string':
          return values
            ? { kind, values: values.filter((value): value is string => typeof value === 'string') }
            : { kind };
        case 'array':
          return { kind, elements: elementsOf(schema) };
        case 'object':
          return { kind, schema };
        default:
          return { kind };
      }
    });
}

/** The values of a value list: a GraphQL enum's names, or those a value-list scalar's description lists. */
function valueListOf(type: GraphQLInputType): readonly string[] | undefined {
  if (isEnumType(type)) return type.getValues().map(({ name }) => name);
  if (!isScalarType(type)) return undefined;
  const listed = /^One of: (.+)\.$/s.exec(type.description ?? '');
  return listed ? listed[1].split(', ') : undefined;
}

/** A field schema and the schemas nested in it whose keywords bound the field's value. */
function boundingNodes(schema: JsonSchema): JsonSchema[] {
  const nested = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.items) ? schema.items : [schema.items]),
    schema.additionalItems,
    schema['x-integer'],
  ].filter(isSchema);
  // `not` is left out: its bounds are what the value must not have.
  return [schema, ...nested.flatMap(boundingNodes)];
}

const BOUND_PAIRS = [
  ['minimum', 'maximum'],
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
] as const;

/** Whether `value` passes `schema` as the value of a body field (with the spec's own keywords). */
function specAccepts(schema: JsonSchema, value: unknown): boolean {
  return !('violation' in checkObject({ properties: { value: schema } }, { value }));
}

const listed = (values: readonly string[]): string => (values.length > 0 ? values.join(', ') : 'none');

/** Compares GraphQL input object types with specs, collecting every disagreement. */
class AgreementCheck {
  private readonly found: string[] = [];
  /** The input object types compared with a spec, top-level or nested. */
  readonly compared = new Set<string>();

  get problems(): string[] {
    return unique(this.found);
  }

  report(path: string, problem: string): void {
    this.found.push(`${path}: ${problem}`);
  }

  compareObject(type: GraphQLInputObjectType, spec: ObjectSpec, path: string): void {
    this.compared.add(type.name);
    const fields = type.getFields();
    const required = new Set(spec.required ?? []);
    for (const name of Object.keys(spec.properties)) {
      if (!Object.hasOwn(fields, name)) this.report(`${path}.${name}`, 'in the spec, not in GraphQL');
    }
    for (const [name, field] of Object.entries(fields)) {
      const schema = spec.properties[name];
      if (!Object.hasOwn(spec.properties, name) || !schema) {
        this.report(`${path}.${name}`, 'in GraphQL, not in the spec');
        continue;
      }
      this.compareField(field, schema, required.has(name), `${path}.${name}`);
    }
  }

  private compareField(
    field: GraphQLInputField,
    schema: JsonSchema,
    specRequired: boolean,
    path: string,
  ): void {
    // graphql-js: a field is required when it is non-null and has no default.
    if (isRequiredInputField(field) && !specRequired) {
      this.report(path, `GraphQL requires it (${String(field.type)}), the spec lets it be left out`);
    }
    // A required spec field that GraphQL lets be left out (nullable) is the design; see the top.
    if (field.defaultValue !== undefined) {
      const json = JSON.stringify(field.defaultValue);
      if (specRequired) {
        this.report(path, `the spec requires it, but GraphQL fills in ${json} when it is left out`);
      } else if (!specAccepts(schema, field.defaultValue)) {
        this.report(path, `GraphQL's default ${json} is refused by the spec`);
      }
    }
    this.accept(field.type, schema, path);
    this.compareDescription(field.description ?? '', schema, path);
  }

  /** Reports each form of value `schema` accepts that `type` refuses. */
  private accept(type: GraphQLInputType, schema: JsonSchema, path: string): void {
    for (const alternative of alternativesOf(schema)) this.acceptAlternative(type, alternative, path);
  }

  private acceptAlternative(type: GraphQLInputType, alternative: Alternative, path: string): void {
    if (isNonNullType(type)) {
      if (alternative.kind === 'null') {
        this.report(path, `the spec accepts null, GraphQL's ${String(type)} does not`);
        return;
      }
      this.acceptAlternative(type.ofType, alternative, path);
      return;
    }
    if (alternative.kind === 'null') return;
    const refused = (what: string): void =>
      this.report(
        path,
        `the spec accepts ${KIND_NAMES[alternative.kind]}, GraphQL's ${String(type)} ${what}`,
      );
    if (isListType(type)) {
      if (alternative.kind !== 'array') return refused('is a list');
      for (const element of alternative.elements) this.accept(type.ofType, element, `${path}[]`);
      return;
    }
    if (isInputObjectType(type)) {
      if (alternative.kind !== 'object') return refused('is an input object');
      this.acceptObject(type, alternative.schema, path);
      return;
    }
    const values = valueListOf(type);
    if (values) {
      if (alternative.kind !== 'string') return refused(`holds only ${listed(values)}`);
      this.compareValues(type.name, values, alternative.values, path);
      return;
    }
    const kinds = SCALAR_KINDS[type.name];
    if (!kinds) {
      this.report(
        path,
        `no rule for the scalar ${type.name}: say in SCALAR_KINDS which JSON values it passes`,
      );
      return;
    }
    if (kinds !== 'any' && !kinds.includes(alternative.kind)) refused('does not');
  }

  /** An object the spec nests: closed as GraphQL input objects are, and compared field by field. */
  private acceptObject(type: GraphQLInputObjectType, schema: JsonSchema, path: string): void {
    if (schema.additionalProperties !== false) {
      this.report(path, `the spec's object accepts unknown fields, GraphQL's ${type.name} refuses them`);
    }
    const properties: Record<string, JsonSchema> = {};
    for (const [name, value] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) {
      if (isSchema(value)) properties[name] = value;
    }
    this.compareObject(type, { properties, required: stringsAt(schema, 'required') }, path);
  }

  private compareValues(
    name: string,
    graphqlValues: readonly string[],
    specValues: readonly string[] | undefined,
    path: string,
  ): void {
    if (!specValues) {
      this.report(path, `the spec accepts any string, GraphQL's ${name} only ${listed(graphqlValues)}`);
      return;
    }
    const onlySpec = specValues.filter((value) => !graphqlValues.includes(value));
    const onlyGraphql = graphqlValues.filter((value) => !specValues.includes(value));
    if (onlySpec.length > 0 || onlyGraphql.length > 0) {
      this.report(
        path,
        `values differ from GraphQL's ${name}: only in the spec: ${listed(onlySpec)}; only in GraphQL: ${listed(onlyGraphql)}`,
      );
    }
  }

  /** What the description states in a fixed form, against the spec's keywords. */
  private compareDescription(description: string, schema: JsonSchema, path: string): void {
    const nodes = boundingNodes(schema);
    const pairs = unique(
      nodes.flatMap((node) =>
        BOUND_PAIRS.flatMap(([low, high]) => {
          const [minimum, maximum] = [numberAt(node, low), numberAt(node, high)];
          return minimum === undefined || maximum === undefined ? [] : [`${minimum}..${maximum}`];
        }),
      ),
    );
    const valuesOf = (keywords: readonly string[]): number[] =>
      unique(nodes.flatMap((node) => keywords.flatMap((keyword) => numberAt(node, keyword) ?? [])));
    const lows = valuesOf(['minimum', 'minLength', 'minItems']);
    const highs = valuesOf(['maximum', 'maxLength', 'maxItems']);
    // A spec without such keywords (bounds inside a pattern) has nothing to compare with.
    for (const [range] of description.matchAll(/-?\d+\.\.-?\d+/g)) {
      if (pairs.length > 0 && !pairs.includes(range)) {
        this.report(path, `the description says ${range}, the spec's bounds are ${listed(pairs)}`);
      }
    }
    for (const [phrase, side, count] of description.matchAll(/\bat (most|least) (\d+)/gi)) {
      const bounds = side.toLowerCase() === 'most' ? highs : lows;
      if (bounds.length > 0 && !bounds.includes(Number(count))) {
        this.report(path, `the description says "${phrase}", the spec's bounds are ${bounds.join(', ')}`);
      }
    }
    const quoted = /(\^\S*\$)/.exec(description)?.[1];
    const patterns = nodes.flatMap((node) => (typeof node.pattern === 'string' ? [node.pattern] : []));
    if (quoted && patterns.length > 0 && !patterns.includes(quoted)) {
      this.report(path, `the description quotes ${quoted}, the spec's pattern is ${listed(patterns)}`);
    }
    const sorts = /`field:asc\|desc` entries over ([^.]+)\./.exec(description)?.[1].split(', ');
    const allowed = nodes.flatMap((node) => stringsAt(node, 'x-sort-fields'));
    if (sorts && !(sorts.length === allowed.length && sorts.every((field) => allowed.includes(field)))) {
      this.report(
        path,
        `the description lists the sorts ${listed(sorts)}, the spec allows ${listed(allowed)}`,
      );
    }
  }
}

/** The GraphQL input type of each registered class, compared with its spec. */
function checkRegistrations(
  schema: GraphQLSchema,
  registrations: ReadonlyMap<ClassType, ObjectSpec>,
): AgreementCheck {
  const check = new AgreementCheck();
  for (const [input, spec] of registrations) {
    const name = getMetadataStorage().inputTypes.find(({ target }) => target === input)?.name;
    const type = name === undefined ? undefined : schema.getType(name);
    if (!isInputObjectType(type)) {
      check.report(input.name, 'registered, but not an input object type of the schema');
      continue;
    }
    check.compareObject(type, spec, type.name);
  }
  return check;
}

describe('GraphQL input types and the specs of their REST bodies', () => {
  let schema: GraphQLSchema;
  let check: AgreementCheck;

  beforeAll(async () => {
    schema = await buildAppSchema();
    check = checkRegistrations(schema, registeredInputSpecs());
  });

  it(`registers a spec for at least ${EXPECTED_MINIMUM_REGISTRATIONS} input classes`, () => {
    expect(registeredInputSpecs().size).toBeGreaterThanOrEqual(EXPECTED_MINIMUM_REGISTRATIONS);
  });

  it('declare the same fields, requiredness, value kinds, value lists and stated bounds', () => {
    expect(check.problems).toEqual([]);
  });

  it('leave no input object type of the schema without a spec', () => {
    // Input types nested in a spec (ReviewInput, CollectionEntryInput) are compared there.
    const unchecked = Object.values(schema.getTypeMap())
      .filter((type) => isInputObjectType(type) && !check.compared.has(type.name))
      .map(({ name }) => name);
    expect(unchecked).toEqual([]);
  });

  it('reports each kind of disagreement (the check itself)', () => {
    const Color = new GraphQLEnumType({ name: 'Color', values: { red: {}, green: {} } });
    const Shade = new GraphQLScalarType({ name: 'Shade', description: 'One of: light, 4_dark.' });
    const Odd = new GraphQLScalarType({ name: 'Odd' });
    const Entry = new GraphQLInputObjectType({
      name: 'Entry',
      fields: { slug: { type: GraphQLString }, extra: { type: GraphQLString } },
    });
    const Probe = new GraphQLInputObjectType({
      name: 'Probe',
      fields: {
        graphql_only: { type: GraphQLString },
        graphql_required: { type: new GraphQLNonNull(GraphQLString) },
        defaulted: { type: GraphQLBoolean, defaultValue: false },
        refused_default: { type: GraphQLString, defaultValue: 'x' },
        null_refused: { type: new GraphQLNonNull(GraphQLString) },
        count: { type: GraphQLInt, description: '0..20, default 0.' },
        date: { type: GraphQLInt },
        color: { type: Color },
        shade: { type: new GraphQLList(new GraphQLNonNull(Shade)) },
        free_color: { type: Color },
        odd: { type: Odd },
        entries: { type: new GraphQLList(Entry), description: 'At most 3.' },
        sort: { type: new GraphQLList(GraphQLString), description: '`field:asc|desc` entries over a, b.' },
        // The permissive rule: none of these is a disagreement.
        spec_required: { type: GraphQLString },
        spec_enum: { type: GraphQLString },
        spec_refuses_null: { type: GraphQLBoolean },
        with_default: { type: new GraphQLNonNull(GraphQLBoolean), defaultValue: true },
        fraction: { type: GraphQLFloat },
      },
    });
    const spec: ObjectSpec = {
      properties: {
        spec_only: booleanField,
        graphql_required: { type: 'string' },
        defaulted: booleanField,
        refused_default: enumValue(['y']),
        null_refused: { type: ['string', 'null'] },
        count: integerField({ minimum: 0, maximum: 10 }),
        date: { type: 'number' },
        color: enumValue(['red', 'blue']),
        shade: enumArray(['light', 'dark']),
        free_color: { type: 'string' },
        odd: { type: 'string' },
        entries: {
          type: 'array',
          maxItems: 2,
          items: { type: 'object', properties: { slug: { type: 'string' }, label: { type: 'string' } } },
        },
        sort: sortField(['a', 'c']),
        spec_required: { type: 'string' },
        spec_enum: nullableEnumValue(['a']),
        spec_refuses_null: booleanField,
        with_default: booleanField,
        fraction: { type: 'integer' },
      },
      required: ['defaulted', 'null_refused', 'spec_required'],
    };
    const probe = new AgreementCheck();
    probe.compareObject(Probe, spec, 'Probe');
    expect(probe.problems).toEqual([
      'Probe.spec_only: in the spec, not in GraphQL',
      'Probe.graphql_only: in GraphQL, not in the spec',
      'Probe.graphql_required: GraphQL requires it (String!), the spec lets it be left out',
      'Probe.defaulted: the spec requires it, but GraphQL fills in false when it is left out',
      'Probe.refused_default: GraphQL\'s default "x" is refused by the spec',
      "Probe.null_refused: the spec accepts null, GraphQL's String! does not",
      "Probe.count: the spec accepts strings, GraphQL's Int does not",
      "Probe.count: the description says 0..20, the spec's bounds are 0..10",
      "Probe.date: the spec accepts fractional numbers, GraphQL's Int does not",
      "Probe.color: values differ from GraphQL's Color: only in the spec: blue; only in GraphQL: green",
      "Probe.shade[]: values differ from GraphQL's Shade: only in the spec: dark; only in GraphQL: 4_dark",
      "Probe.free_color: the spec accepts any string, GraphQL's Color only red, green",
      'Probe.odd: no rule for the scalar Odd: say in SCALAR_KINDS which JSON values it passes',
      "Probe.entries[]: the spec's object accepts unknown fields, GraphQL's Entry refuses them",
      'Probe.entries[].label: in the spec, not in GraphQL',
      'Probe.entries[].extra: in GraphQL, not in the spec',
      'Probe.entries: the description says "At most 3", the spec\'s bounds are 2',
      'Probe.sort: the description lists the sorts a, b, the spec allows a, c',
    ]);
  });
});

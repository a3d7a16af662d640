import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
} from 'graphql';
import { PAGE_MAX, SIZE_DEFAULT, SIZE_MAX } from '../common/pagination/pagination';
import type { JsonSchema, RestRoute } from './route';

/**
 * The OpenAPI 3.1 document of the REST facade, generated from the route table:
 * inputs from each row's JSON Schemas, the 200 body from its persisted GraphQL
 * document walked against the executable schema. Nothing here is written per path.
 */
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input or a rule of the operation was broken',
  401: 'Missing, invalid or expired token, or wrong credentials',
  403: 'The caller, or the scopes of a third-party token, may not do this',
  404: 'Not found',
  408: 'The request took too long',
  409: 'Conflicts with what exists (a taken name, an existing review, ...)',
  413: 'The body is larger than 1 MB',
  429: 'Too many requests',
  500: 'Internal error',
};

// ---------------------------------------------------------------------------
// Request schemas: the ajv schemas of the rows, in the 2020-12 dialect of OpenAPI 3.1.

/** Copies a row's JSON Schema, turning draft-07 tuple `items: [...]` into `prefixItems`. */
export function toSchema2020(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toSchema2020);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map(toSchema2020);
    else if (key === 'additionalItems') {
      if (Array.isArray(source.items)) out.items = toSchema2020(value);
    } else if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, sub]) => [name, toSchema2020(sub)]),
      );
    } else out[key] = typeof value === 'object' ? toSchema2020(value) : value;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Response schemas: the selection set of the route document against the schema.

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  UnixTime: { type: 'integer' },
  ImageUrl: { type: 'string', format: 'uri' },
  JSON: {},
  JSONObject: { type: 'object' },
};

/**
 * Value-list scalars (src/common/scalars/value-list.ts: Source) carry their values in the
 * description; a scalar counts as one only if it accepts every listed value and
 * rejects anything else, so a changed description cannot produce a wrong enum.
 */
function enumScalarValues(type: GraphQLNamedType): string[] | undefined {
  if (!isScalarType(type)) return undefined;
  const match = /^One of: (.*)\.$/.exec(type.description ?? '');
  if (!match) return undefined;
  const values = match[1].split(', ');
  const accepts = (value: string) => {
    try {
      type.serialize(value);
      return true;
    } catch {
      return false;
    }
  };
  return values.every(accepts) && !accepts('\u0000not-a-value') ? values : undefined;
}

function namedSchema(type: GraphQLNamedType): JsonSchema {
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value as string) };
  const known = SCALARS[type.name];
  if (known) return { ...known };
  const values = enumScalarValues(type);
  if (values) return { type: 'string', enum: values };
  throw new Error(`OpenAPI: no JSON Schema for the GraphQL scalar ${type.name}`);
}

/** `nullable` version of a schema: `type: [t, 'null']` where possible, else `anyOf`. */
function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string' && !('oneOf' in schema)) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

class SelectionWalker {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
  ) {}

  /** The schema of a value of `type` with the merged `selections` (none for leaves). */
  output(type: GraphQLOutputType, selections: readonly SelectionSetNode[]): JsonSchema {
    if (isNonNullType(type)) return this.nonNull(type.ofType, selections);
    return orNull(this.nonNull(type, selections));
  }

  private nonNull(type: GraphQLOutputType, selections: readonly SelectionSetNode[]): JsonSchema {
    if (isNonNullType(type)) return this.nonNull(type.ofType, selections);
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selections) };
    if (isObjectType(type)) return this.object(type, selections);
    if (isAbstractType(type)) {
      const variants = new Map<string, JsonSchema>();
      for (const possible of this.schema.getPossibleTypes(type)) {
        const variant = this.object(possible, selections);
        variants.set(JSON.stringify(variant), variant);
      }
      const distinct = [...variants.values()];
      return distinct.length === 1 ? distinct[0] : { oneOf: distinct };
    }
    return namedSchema(getNamedType(type));
  }

  private object(type: GraphQLObjectType, selections: readonly SelectionSetNode[]): JsonSchema {
    const fields = new Map<string, FieldNode[]>();
    for (const set of selections) this.collect(type, set, fields);
    const properties: Record<string, JsonSchema> = {};
    for (const [key, nodes] of fields) {
      const name = nodes[0].name.value;
      if (name === '__typename') {
        properties[key] = { type: 'string', const: type.name };
        continue;
      }
      const field: GraphQLField<unknown, unknown> | undefined = type.getFields()[name];
      if (!field) throw new Error(`OpenAPI: ${type.name} has no field ${name}`);
      const sub = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
      properties[key] = this.output(field.type, sub);
    }
    return { type: 'object', properties, required: [...fields.keys()], additionalProperties: false };
  }

  /** Fields by response key (alias or name), following fragments that apply to `type`. */
  private collect(type: GraphQLObjectType, set: SelectionSetNode, into: Map<string, FieldNode[]>): void {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        into.set(key, [...(into.get(key) ?? []), selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (this.applies(type, selection.typeCondition?.name.value)) {
          this.collect(type, selection.selectionSet, into);
        }
      } else {
        const fragment = this.fragments.get(selection.name.value);
        if (!fragment) throw new Error(`OpenAPI: unknown fragment ${selection.name.value}`);
        if (this.applies(type, fragment.typeCondition.name.value)) {
          this.collect(type, fragment.selectionSet, into);
        }
      }
    }
  }

  private applies(type: GraphQLObjectType, condition: string | undefined): boolean {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = this.schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType)
      ? this.schema.isSubType(conditionType, type)
      : false;
  }
}

/** The JSON Schema of `data[rootField]` of a route's document. */
export function responseSchemaOf(schema: GraphQLSchema, route: RestRoute): JsonSchema {
  const document = parse(route.document);
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1) throw new Error(`OpenAPI: ${route.path} needs exactly one operation`);
  const [operation] = operations;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!rootType) throw new Error(`OpenAPI: the schema has no ${operation.operation} type`);
  const walker = new SelectionWalker(schema, fragments);
  const root = walker.output(rootType, [operation.selectionSet]) as {
    properties: Record<string, JsonSchema>;
  };
  const body = root.properties[route.rootField];
  if (!body) throw new Error(`OpenAPI: ${route.path} does not select ${route.rootField}`);
  return body;
}

// ---------------------------------------------------------------------------
// The document.

const pageParameter = (name: 'page' | 'size', fallback: number, maximum: number) => ({
  name,
  in: 'query',
  required: false,
  description: `Decimal digits without sign or leading zero; at most ${maximum}.`,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$', default: String(fallback) },
});

function tagOf(route: RestRoute): string {
  return route.path.split('/')[1] ?? 'other';
}

function errorResponses(route: RestRoute): Record<string, unknown> {
  const statuses = [400];
  if (route.auth === 'required') statuses.push(401);
  // Optional authentication refuses a third-party token without the route's scopes.
  if (route.auth !== 'none') statuses.push(403);
  if (Object.keys(route.params).length > 0 || route.auth !== 'none') statuses.push(404);
  statuses.push(408);
  if (route.body) statuses.push(413);
  statuses.push(429, 500, ...(route.errors ?? []));
  return Object.fromEntries(
    [...new Set(statuses)]
      .sort((a, b) => a - b)
      .map((status) => [
        String(status),
        {
          description: ERROR_DESCRIPTIONS[status],
          content: { 'application/json': { schema: ERROR_REF } },
        },
      ]),
  );
}

function securityOf(route: RestRoute): unknown[] {
  if (route.auth === 'none') return [];
  const schemes = [{ auth: [] }, { authCookie: [] }];
  return route.auth === 'required' ? schemes : [...schemes, {}];
}

/** The route's own summary; the contract's paths are marked with their number, as the contract lists them. */
function summaryOf(route: RestRoute): string {
  return route.contract === undefined ? route.summary : `Contract #${route.contract}: ${route.summary}`;
}

function operationOf(schema: GraphQLSchema, route: RestRoute): Record<string, unknown> {
  const parameters: unknown[] = Object.entries(route.params).map(([name, param]) => ({
    name,
    in: 'path',
    required: true,
    schema: toSchema2020(param),
  }));
  if (route.paged) {
    parameters.push(pageParameter('page', 1, PAGE_MAX), pageParameter('size', SIZE_DEFAULT, SIZE_MAX));
  }
  for (const [name, param] of Object.entries(route.query ?? {})) {
    parameters.push({ name, in: 'query', required: false, schema: toSchema2020(param) });
  }
  const operation: Record<string, unknown> = {
    operationId: route.rootField,
    tags: [tagOf(route)],
    summary: summaryOf(route),
    description: [
      route.description,
      `Authentication: ${route.auth}.`,
      `Answers \`data.${route.rootField}\` of its persisted GraphQL document.`,
    ].join('\n\n'),
    security: securityOf(route),
  };
  if (route.contract !== undefined) operation['x-contract'] = route.contract;
  if (parameters.length > 0) operation.parameters = parameters;
  if (route.body) {
    const { properties, required = [], whole } = route.body;
    operation.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: {
            ...(toSchema2020(whole ?? {}) as JsonSchema),
            type: 'object',
            properties: toSchema2020(properties),
            ...(required.length > 0 ? { required: [...required] } : {}),
            additionalProperties: false,
          },
        },
      },
    };
  }
  operation.responses = {
    '200': {
      description: `\`data.${route.rootField}\``,
      content: { 'application/json': { schema: responseSchemaOf(schema, route) } },
    },
    ...errorResponses(route),
  };
  return operation;
}

/** Builds the OpenAPI 3.1 document of `routes` against the executable `schema`. */
export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const usedIds = new Map<string, number>();
  for (const route of routes) {
    const operation = operationOf(schema, route);
    // operationId must be unique; a root field answering two rows gets a method suffix.
    const count = usedIds.get(route.rootField) ?? 0;
    usedIds.set(route.rootField, count + 1);
    if (count > 0) operation.operationId = `${route.rootField}_${route.method.toLowerCase()}${count}`;
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const tags = [...new Set(routes.map(tagOf))]
    .sort()
    .map((name) => ({ name, description: `Paths under /${name}` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Catalog and community service REST API',
      version: '0.1.0',
      description:
        'Every path answers `data[rootField]` of a persisted GraphQL document (POST /graphql runs the same operations). ' +
        'Errors are `{message, code}`.',
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [{ url: '/' }],
    tags,
    security: [],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { type: 'string', description: 'In the language of Accept-Language' },
            code: { type: 'string', description: 'Stable machine-readable code, e.g. `manga:not_found`' },
          },
          required: ['message', 'code'],
          additionalProperties: false,
        },
      },
      securitySchemes: {
        auth: { type: 'apiKey', in: 'header', name: 'auth', description: 'A token secret' },
        authCookie: { type: 'apiKey', in: 'cookie', name: 'auth', description: 'The same token as a cookie' },
      },
    },
  };
}

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTVisitor,
  type GraphQLEnumType,
  type GraphQLOutputType,
} from 'graphql';
import ts from 'typescript';
import { operationTypes } from '../../codegen';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';

/**
 * What a frontend gets from GraphQL Code Generator: codegen.ts's output settings, run over
 * schema.graphql and the persisted document of each contract route, must type every
 * enum-valued field those documents select as the union of exactly its enum's values, as the
 * TypeScript compiler sees the generated code. The fields are found by walking the documents
 * against the schema, so a new document or field is checked without a list to keep.
 */

const SCHEMA_FILE = join(__dirname, '../../schema.graphql');
const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
const contractRoutes = restRoutes
  .filter((route) => route.contract !== undefined)
  .sort((a, b) => (a.contract ?? 0) - (b.contract ?? 0));

/** A selection's place in the generated types. */
interface Scope {
  /** A TypeScript type expression for the selection's generated type. */
  expression: string;
  /** For messages: `MangaQuery.manga.status`. */
  label: string;
}

/** One enum-valued field selected by a document: `expression` is the type of one of its values. */
interface EnumField extends Scope {
  enumType: GraphQLEnumType;
}

/** The type of one value of a field typed `expression`: without null and list levels. */
function valueOf(expression: string, type: GraphQLOutputType): string {
  if (isNonNullType(type)) return valueOf(expression, type.ofType);
  if (isListType(type)) return valueOf(`NonNullable<${expression}>[number]`, type.ofType);
  return expression;
}

/**
 * The enum-valued fields of a document, each reached from the generated type of the operation
 * or fragment that selects it (`MangaQuery`, `PersonFieldsFragment`); a fragment's fields are
 * checked in its own generated type, which the operation's type repeats.
 */
function enumFieldsOf(document: string): EnumField[] {
  const typeInfo = new TypeInfo(schema);
  const fields: EnumField[] = [];
  // The enclosing selections, innermost last.
  const scopes: Scope[] = [];
  const enterRoot = (name: string): void => {
    scopes.splice(0, scopes.length, { expression: name, label: name });
  };
  const visitor: ASTVisitor = {
    OperationDefinition(node) {
      const suffix = node.operation[0].toUpperCase() + node.operation.slice(1);
      enterRoot(`${node.name?.value ?? ''}${suffix}`);
    },
    FragmentDefinition(node) {
      enterRoot(`${node.name.value}Fragment`);
    },
    InlineFragment: {
      enter() {
        // Union members are told apart by `__typename` (the test asks codegen to add it).
        const scope = scopes[scopes.length - 1];
        const parent = typeInfo.getParentType();
        const condition = getNamedType(typeInfo.getType());
        if (!parent || !condition || !isAbstractType(parent) || condition === parent) {
          scopes.push(scope);
          return;
        }
        const members = isAbstractType(condition) ? schema.getPossibleTypes(condition) : [condition];
        const typenames = members.map((member) => `'${member.name}'`).join(' | ');
        scopes.push({
          expression: `Extract<NonNullable<${scope.expression}>, { __typename: ${typenames} }>`,
          label: `${scope.label}(on ${condition.name})`,
        });
      },
      leave() {
        scopes.pop();
      },
    },
    Field: {
      enter(node) {
        const type = typeInfo.getType();
        if (!type) throw new Error(`${node.name.value} is not in schema.graphql`);
        const key = node.alias?.value ?? node.name.value;
        const scope = scopes[scopes.length - 1];
        const field: Scope = {
          expression: valueOf(`NonNullable<${scope.expression}>['${key}']`, type),
          label: `${scope.label}.${key}`,
        };
        const named = getNamedType(type);
        if (isEnumType(named)) fields.push({ ...field, enumType: named });
        scopes.push(field);
      },
      leave() {
        scopes.pop();
      },
    },
  };
  visit(parse(document), visitWithTypeInfo(typeInfo, visitor));
  return fields;
}

/**
 * Runs GraphQL Code Generator's `generate` (its CLI's API) in a child Node process, once per
 * document: its ESM-only dependencies load there through Node's own require(esm), which jest's
 * module system does not offer on Node 20.
 */
const GENERATE_EACH = `
const { generate } = require('@graphql-codegen/cli');
const { schema, documents, output } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
(async () => {
  const contents = [];
  for (const document of documents) {
    const [file] = await generate({ schema, documents: [document], generates: { 'operations.ts': output }, silent: true }, false);
    contents.push(file.content);
  }
  process.stdout.write(JSON.stringify(contents));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

function generateTypes(documents: readonly string[]): string[] {
  const output = {
    ...operationTypes,
    // Adds `__typename: 'Anime'` and so on to every object type, so that a probe can pick one
    // member of a union; no other type changes.
    config: { ...operationTypes.config, nonOptionalTypename: true },
  };
  const stdout = execFileSync(process.execPath, ['-e', GENERATE_EACH], {
    cwd: join(__dirname, '../..'),
    input: JSON.stringify({ schema: SCHEMA_FILE, documents, output }),
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as string[];
}

/** The generated types of one contract document, with one probe alias per enum-valued field. */
interface ContractCheck {
  route: RestRoute;
  fileName: string;
  fields: EnumField[];
  source: string;
}

const probeName = (index: number): string => `EnumFieldProbe${index}`;

function contractChecks(routes: readonly RestRoute[]): ContractCheck[] {
  const generated = generateTypes(routes.map((route) => route.document));
  return routes.map((route, i) => {
    const fields = enumFieldsOf(route.document);
    const probes = fields.map((field, n) => `export type ${probeName(n)} = ${field.expression};`);
    return {
      route,
      fileName: `/codegen-check/contract-${route.contract}.ts`,
      fields,
      source: [generated[i], ...probes].join('\n'),
    };
  });
}

/** The generated files, compiled in memory with strict settings and no other project files. */
function compile(checks: readonly ContractCheck[]): ts.Program {
  const sources = new Map(checks.map((check) => [check.fileName, check.source]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ['lib.es2023.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readLibraryFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const source = sources.get(fileName);
    return source === undefined
      ? readLibraryFile(fileName, languageVersion, onError)
      : ts.createSourceFile(fileName, source, languageVersion, true);
  };
  host.fileExists = (fileName) => sources.has(fileName) || ts.sys.fileExists(fileName);
  host.readFile = (fileName) => sources.get(fileName) ?? ts.sys.readFile(fileName);
  return ts.createProgram([...sources.keys()], options, host);
}

/** The values of a type that is a string literal or a union of them; null for any other type. */
function literalValues(type: ts.Type): string[] | null {
  const members = type.isUnion() ? type.types : [type];
  // A TypeScript enum's members are string literals too, but a plain string does not fit them.
  const values = members.map((member) =>
    member.isStringLiteral() && !(member.flags & ts.TypeFlags.EnumLiteral) ? member.value : null,
  );
  return values.every((value) => value !== null) ? values : null;
}

/** Each enum-valued field whose generated type is not exactly its enum's values, and why. */
function mistypedFields(program: ts.Program, check: ContractCheck): string[] {
  const checker = program.getTypeChecker();
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  program.getSourceFile(check.fileName)?.statements.forEach((statement) => {
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
  });
  return check.fields.flatMap((field, i) => {
    const alias = aliases.get(probeName(i));
    if (!alias) return [`${field.label}: no probe`];
    const type = checker.getNonNullableType(checker.getTypeAtLocation(alias.name));
    const expected = field.enumType.getValues().map((value) => value.name);
    const values = literalValues(type);
    const exact = values !== null && [...values].sort().join() === [...expected].sort().join();
    return exact
      ? []
      : [`${field.label}: ${checker.typeToString(type)}, not ${expected.map((v) => `'${v}'`).join(' | ')}`];
  });
}

describe('GraphQL Code Generator types for the contract documents', () => {
  let checks: ContractCheck[];
  let program: ts.Program;

  beforeAll(() => {
    checks = contractChecks(contractRoutes);
    program = compile(checks);
  });

  it('covers the 22 contract documents and the enum-valued fields they select', () => {
    expect(contractRoutes.map((route) => route.contract)).toEqual(
      Array.from({ length: 22 }, (_, i) => i + 1),
    );
    const fields = checks.flatMap((check) => check.fields);
    const enums = new Set(fields.map((field) => field.enumType.name));
    // 94 when written: titles, list entries, users, comments and notifications select media_type,
    // status, season, rating, role, notification_type and the like.
    expect(fields.length).toBeGreaterThanOrEqual(80);
    expect([...enums]).toEqual(
      expect.arrayContaining([
        'WatchStatus',
        'ReadStatus',
        'ReleaseStatus',
        'Season',
        'NotificationType',
        'UserRole',
      ]),
    );
  });

  it.each(contractRoutes)(
    'contract #$contract: compiles, with each enum-valued field a union of its values',
    (route) => {
      const check = checks.find((c) => c.route === route);
      if (!check) throw new Error('no generated types');
      const errors = ts
        .getPreEmitDiagnostics(program, program.getSourceFile(check.fileName))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([]);
      expect(mistypedFields(program, check)).toEqual([]);
    },
  );
});

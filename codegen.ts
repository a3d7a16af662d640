import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Types for a frontend's operations, as GraphQL Code Generator makes them from this service's
 * schema: `npx graphql-codegen --config codegen.ts`. A frontend copies this file and points
 * `documents` at its own operations; tests/graphql/codegen.test.ts runs the same output settings
 * over the persisted documents of the 22 contract routes.
 *
 * typescript-operations 6 declares the schema types its operations use (enums, inputs,
 * scalars) in its own output, so it needs no `typescript` plugin beside it: both in one file
 * would declare each used enum twice.
 */
export const operationTypes = {
  plugins: ['typescript-operations'],
  config: {
    // Enums become unions of their values ('planned' | 'watching' | ...), the strings the JSON carries.
    enumType: 'string-literal',
    // Custom scalars as the JSON carries them; the others stay `unknown`.
    scalars: {
      UnixTime: 'number',
      ImageUrl: 'string',
      Source: 'string',
      IntegerInput: 'number | string',
    },
  },
} satisfies NonNullable<CodegenConfig['generates']>[string];

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: 'src/**/*.graphql',
  generates: { 'src/generated/operations.ts': operationTypes },
};

export default config;

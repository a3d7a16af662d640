import {
  getVariableValues,
  type GraphQLSchema,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import {
  DEMO_ANIME_SLUG,
  DEMO_LOGIN,
  DEMO_MANGA_SLUG,
  PLAYGROUND_EXAMPLES,
  TOKEN_PLACEHOLDER,
} from '../../src/graphql/playground-examples';
import { generateDemoCatalog } from '../../src/import/demo-catalog';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_SCALE, DEMO_SEED } from '../../src/import/demo-data';
import { buildAppSchema } from '../../src/schema';

describe('the playground examples', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildAppSchema();
  });

  it.each(PLAYGROUND_EXAMPLES.map((example, index) => [index + 1, example] as const))(
    'tab %i is one named operation that is valid against the schema, with variables it accepts',
    (_tab, example) => {
      const document = parse(example.query);
      expect(validate(schema, document)).toEqual([]);
      expect(document.definitions).toHaveLength(1);
      const operation = document.definitions[0] as OperationDefinitionNode;
      expect(operation.name?.value).toEqual(expect.any(String));
      const variables: unknown = JSON.parse(example.variables ?? '{}');
      const coerced = getVariableValues(
        schema,
        operation.variableDefinitions ?? [],
        variables as Record<string, unknown>,
      );
      expect(coerced.errors ?? []).toEqual([]);
      if (example.headers !== undefined)
        expect(JSON.parse(example.headers)).toEqual({ auth: TOKEN_PLACEHOLDER });
      // What the query editor shows of a line at half a laptop screen's width.
      const longComments = example.query
        .split('\n')
        .filter((line) => line.startsWith('#') && line.length > 56);
      expect(longComments).toEqual([]);
    },
  );

  it('leaves the first tab without variables and headers, which GraphiQL 3.9 would not show on opening', () => {
    expect(PLAYGROUND_EXAMPLES[0]).toEqual({ query: expect.any(String) });
  });

  it('names a demo manga that has authors, a demo anime with characters, staff and studios, and the demo account with its password', () => {
    const manga = [...generateDemoCatalog({ seed: DEMO_SEED, scale: DEMO_SCALE, now: 0 })].flatMap(
      (part) => part.manga ?? [],
    );
    const example = manga.find((record) => record.slug === DEMO_MANGA_SLUG);
    expect(example).toMatchObject({ deleted: false, authors: expect.arrayContaining([expect.anything()]) });
    const anime = [...generateDemoCatalog({ seed: DEMO_SEED, scale: DEMO_SCALE, now: 0 })].flatMap(
      (part) => part.anime ?? [],
    );
    expect(anime.find((record) => record.slug === DEMO_ANIME_SLUG)).toMatchObject({
      deleted: false,
      characters: expect.arrayContaining([expect.anything()]),
      staff: expect.arrayContaining([expect.anything()]),
      studios: expect.arrayContaining([expect.anything()]),
    });
    expect(DEMO_ACCOUNTS).toContain(DEMO_LOGIN.username);
    expect(DEMO_LOGIN.password).toBe(DEMO_PASSWORD);
  });
});

import { parse, visit } from 'graphql';
import { FragmentLibrary, fragment } from '../../src/rest/fragments';
import { restFragments, restRoutes } from '../../src/routes';

/** The fragment definitions of a document, in order. */
const definedFragments = (document: string): string[] =>
  parse(document).definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [d.name.value] : []));

describe('REST fragments referred to by name', () => {
  const library = new FragmentLibrary([
    fragment('Leaf', 'User', '{ username }'),
    fragment('Middle', 'Comment', '{ text author { ...Leaf } }'),
    fragment('Unused', 'User', '{ avatar }'),
  ]);

  it('completes a document with the fragments it spreads, through other fragments, each once', () => {
    const document = library.complete(
      'query { a: comment { ...Middle } b: comment { ...Middle author { ...Leaf } } }',
    );
    expect(definedFragments(document)).toEqual(['Middle', 'Leaf']);
  });

  it('leaves inline fragments alone and adds nothing to a document that spreads none', () => {
    const operation = 'query { content { ... on Manga { slug } } }';
    expect(library.complete(operation)).toBe(operation);
  });

  it('refuses an unknown fragment and a name declared twice', () => {
    expect(() => library.complete('query { a { ...Missing } }')).toThrow('unknown fragment Missing');
    expect(
      () => new FragmentLibrary([fragment('Leaf', 'User', '{ a }'), fragment('Leaf', 'User', '{ b }')]),
    ).toThrow('fragment Leaf is declared twice');
  });

  it("completes every route's document: each spread fragment defined once, none left over", () => {
    for (const route of restRoutes) {
      const spread = new Set<string>();
      visit(parse(route.document), {
        FragmentSpread(node) {
          spread.add(node.name.value);
        },
      });
      const defined = definedFragments(route.document);
      expect({ path: route.path, defined: [...defined].sort() }).toEqual({
        path: route.path,
        defined: [...spread].sort(),
      });
    }
    // The table's library is the one the routes use.
    expect(restFragments.complete('query { a { ...PersonFields } }')).toContain(
      'fragment PersonFields on Person',
    );
  });
});

import { type DocumentNode, parse, visit } from 'graphql';

/**
 * A named GraphQL fragment of the REST door: the fields of a contract resource, as the
 * routes' documents select them.
 */
export interface Fragment {
  name: string;
  text: string;
}

export function fragment(name: string, on: string, selection: string): Fragment {
  return { name, text: `fragment ${name} on ${on} ${selection}` };
}

/** The names of the fragments a document spreads. */
function spreadNames(document: DocumentNode): string[] {
  const names: string[] = [];
  visit(document, {
    FragmentSpread(node) {
      names.push(node.name.value);
    },
  });
  return names;
}

/**
 * Every domain's fragments, referred to by name: a route's document (or a fragment)
 * spreads `...MangaWithRead` and the route table (src/routes.ts) completes it with the
 * fragments it needs. So a domain's rows select what a domain above it adds to its
 * types (a manga's authors, the caller's list entries) without importing that domain,
 * just as they name the fields themselves.
 */
export class FragmentLibrary {
  private readonly byName = new Map<string, { fragment: Fragment; spreads: string[] }>();

  constructor(fragments: readonly Fragment[]) {
    for (const fragment of fragments) {
      if (this.byName.has(fragment.name)) throw new Error(`fragment ${fragment.name} is declared twice`);
      this.byName.set(fragment.name, { fragment, spreads: spreadNames(parse(fragment.text)) });
    }
  }

  /** `operation` followed by every fragment it spreads, directly or through another, each once. */
  complete(operation: string): string {
    const needed = new Map<string, Fragment>();
    const visitName = (name: string): void => {
      if (needed.has(name)) return;
      const known = this.byName.get(name);
      if (!known) throw new Error(`unknown fragment ${name} in ${operation.trim().split('\n')[0]}`);
      needed.set(name, known.fragment);
      known.spreads.forEach(visitName);
    };
    spreadNames(parse(operation)).forEach(visitName);
    return [operation, ...[...needed.values()].map((f) => f.text)].join('\n');
  }
}

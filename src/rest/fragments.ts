/** A named GraphQL fragment and the fragments it spreads. */
export interface Fragment {
  name: string;
  text: string;
  uses?: readonly Fragment[];
}

export function fragment(
  name: string,
  on: string,
  selection: string,
  uses: readonly Fragment[] = [],
): Fragment {
  return { name, text: `fragment ${name} on ${on} ${selection}`, uses };
}

/** A document: the operation followed by every fragment it needs, each once. */
export function documentOf(operation: string, ...fragments: readonly Fragment[]): string {
  const needed = new Map<string, Fragment>();
  const visit = (f: Fragment): void => {
    if (needed.has(f.name)) return;
    needed.set(f.name, f);
    f.uses?.forEach(visit);
  };
  fragments.forEach(visit);
  return [operation, ...[...needed.values()].map((f) => f.text)].join('\n');
}

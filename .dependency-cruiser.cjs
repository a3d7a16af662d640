/**
 * The layers of src/, checked by `npm run check:lint` (dependency-cruiser): a folder
 * imports its own layer and the layers below it, never one above, and the domains
 * import only domains of lower tiers. Type-only imports are erased at compile time and
 * do not count. The order is in the README ("Architecture").
 */
const runtime = { dependencyTypesNot: ['type-only'] };
const base = ['^src/(config|logger|process-role)[.]ts$'];
const belowDomains = ['^src/(db|common|http|graphql|rest)/', '^src/http[.]ts$'];

/** `from` imports nothing of src/ outside `allowed` at run time. */
const layer = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: '^src/', pathNot: [...allowed, ...base], ...runtime },
});

/**
 * The domains in tiers, lowest first: a domain imports the domains of the tiers before
 * its own, never one of its own tier or above. A domain that extends another's type (a
 * title's authors, the caller's list entries) sits above it and declares the field
 * itself; REST documents name fragments and fields of any domain, completed where the
 * route table is composed (src/routes.ts).
 */
const domainTiers = [
  ['mail'],
  ['accounts', 'catalog'],
  ['people', 'characters', 'franchises', 'lists', 'edits'],
  ['notifications'],
  ['clients', 'follows', 'votes'],
  ['collections'],
  ['articles', 'favourites'],
  ['comments'],
];

/** `tier`'s domains import no domain of `tier` or above at run time. */
const tierRule = (tier, index) => {
  const lower = domainTiers.slice(0, index).flat();
  return layer(
    `domain-tier-${index + 1}`,
    `^src/(${tier.join('|')})/`,
    // $1: the importing module's own domain (dependency-cruiser's group matching).
    [...belowDomains, '^src/$1/', ...(lower.length > 0 ? [`^src/(${lower.join('|')})/`] : [])],
    `${tier.join(', ')} may import ${lower.length > 0 ? lower.join(', ') : 'no domain'} (and the layers below the domains)`,
  );
};

module.exports = {
  forbidden: [
    layer(
      'base-imports-nothing',
      '^src/(config|logger|process-role)[.]ts$',
      [],
      'configuration, logging and the process role are the ground everything stands on',
    ),
    layer(
      'db-knows-no-domain',
      '^src/db/',
      ['^src/db/'],
      'src/db (driver, pools, migrations, SQL helpers) is the bottom layer: the ORM over the domains is composed in src/orm.ts',
    ),
    layer(
      'common-knows-no-domain',
      '^src/common/',
      ['^src/(db|common)/'],
      'src/common (errors, auth rules, pagination, scalars, validation) sits on src/db only',
    ),
    layer(
      'http-knows-no-domain',
      '^src/http([.]ts$|/)',
      ['^src/(db|common|http)/', '^src/http[.]ts$'],
      'src/http and src/http.ts (the HTTP layer and its steps) sit on src/common and src/db',
    ),
    layer(
      'graphql-engine-knows-no-domain',
      '^src/graphql/',
      ['^src/(db|common|http|graphql)/', '^src/http[.]ts$'],
      'src/graphql (the engine: preparation, runner, the compiled reads, the door) sits on src/http and below; domains declare their SQL forms to it',
    ),
    layer(
      'rest-facade-knows-no-domain',
      '^src/rest/',
      ['^src/(db|common|http|graphql|rest)/', '^src/http[.]ts$'],
      "src/rest (the route type, the router, the OpenAPI document) runs routes it is given: src/routes.ts gathers the domains' rows",
    ),
    ...domainTiers.map(tierRule),
    {
      name: 'every-domain-is-in-a-tier',
      comment:
        'a new folder of src/ is given its place: a tier of domainTiers, or a layer above or below them',
      severity: 'error',
      from: {
        path: '^src/[^/]+/',
        pathNot: [...belowDomains, `^src/(${domainTiers.flat().join('|')}|import)/`],
      },
      to: { path: '^src/' },
    },
    {
      name: 'no-cycle',
      comment: 'a module reaches itself again through runtime imports',
      severity: 'error',
      from: { path: '^src/' },
      // viaOnly: every edge of the cycle, not only the first, is a runtime import.
      to: { circular: true, ...runtime, viaOnly: runtime },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

/**
 * The layers of src/, checked by `npm run check:lint` (dependency-cruiser): a folder
 * imports its own layer and the layers below it, never one above. Type-only imports
 * are erased at compile time and do not count. The order is in the README
 * ("Architecture"); the domains' order among themselves is not enforced yet.
 */
const runtime = { dependencyTypesNot: ['type-only'] };
const base = ['^src/(config|logger|process-role)[.]ts$'];

/** `from` imports nothing of src/ outside `allowed` at run time. */
const layer = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: '^src/', pathNot: [...allowed, ...base], ...runtime },
});

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
    {
      name: 'no-cycle-in-the-bottom-layers',
      comment: 'a module of the layers below the domains reaches itself again through runtime imports',
      severity: 'error',
      from: { path: '^src/(db|common|http|graphql|rest)/' },
      to: { circular: true, ...runtime },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

import { Kind, parse } from 'graphql';
import { Authorized, type MiddlewareFn, UseMiddleware } from 'type-graphql';
import { CatalogTitle } from '../../src/catalog/catalog-title.entity';
import { CharactersResolver } from '../../src/characters/characters.resolver';
import { compileSqlPlan } from '../../src/graphql/sql-plan/compile';
import { MangaStatsResolver } from '../../src/lists/title-stats';
import { buildAppSchema } from '../../src/schema';
import { buildManga, buildNovel, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

/**
 * A field guarded by its own `@Authorized` or middleware is never compiled to SQL
 * (src/graphql/sql-plan/field-rules.ts): the rule keeps running on `/graphql` for any
 * document that selects it. The guards are put on fields of the real schema here, before
 * it is built (jest gives this file its own type-graphql metadata).
 */
const middlewareCalls: string[] = [];
const recordCall: MiddlewareFn = ({ info }, next) => {
  middlewareCalls.push(`${info.parentType.name}.${info.fieldName}`);
  return next();
};
// On the class that declares the fields, as type-graphql applies them: anime and novels share them.
UseMiddleware(recordCall)(CatalogTitle.prototype, 'title_en');
Authorized()(CatalogTitle.prototype, 'synopsis_en');
UseMiddleware(recordCall)(
  MangaStatsResolver.prototype,
  'stats',
  Object.getOwnPropertyDescriptor(MangaStatsResolver.prototype, 'stats')!,
);
// And on a root query with a SQL form.
UseMiddleware(recordCall)(
  CharactersResolver.prototype,
  'novelCharacters',
  Object.getOwnPropertyDescriptor(CharactersResolver.prototype, 'novelCharacters')!,
);

const t = useTestApp();

async function compiles(document: string): Promise<boolean> {
  const schema = await buildAppSchema();
  const parsed = parse(document);
  const operation = parsed.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
  return compileSqlPlan(schema, parsed, operation, t.orm.getMetadata()) !== undefined;
}

describe('fields with their own @Authorized or middleware', () => {
  beforeEach(() => {
    middlewareCalls.length = 0;
  });

  it('are not compiled; the rest of the same selection is', async () => {
    expect(await compiles('{ manga(slug: "m") { slug title_ua } }')).toBe(true);
    expect(await compiles('{ manga(slug: "m") { slug title_en } }')).toBe(false);
    expect(await compiles('{ manga(slug: "m") { slug synopsis_en } }')).toBe(false);
    expect(await compiles('{ manga(slug: "m") { slug stats { completed } } }')).toBe(false);
    expect(await compiles('{ novelCharacters(slug: "n") { list { main } } }')).toBe(false);
  });

  it('run their middleware on a guarded root, on /graphql and REST alike', async () => {
    await buildNovel(t.orm, { slug: 'guarded-novel' });
    const res = await gql(t.app, '{ novelCharacters(slug: "guarded-novel") { list { main } } }');
    expect(res.body.data).toEqual({ novelCharacters: { list: [] } });
    await rest(t.app, 'GET', '/novel/guarded-novel/characters').expect(200);
    expect(middlewareCalls).toEqual(['Query.novelCharacters', 'Query.novelCharacters']);
  });

  it('run their middleware on /graphql, on the property and on the field resolver', async () => {
    await buildManga(t.orm, { slug: 'guarded', title_en: 'Guarded' });
    const res = await gql(t.app, '{ manga(slug: "guarded") { title_en stats { completed } } }');
    expect(res.body.data).toEqual({ manga: { title_en: 'Guarded', stats: { completed: 0 } } });
    expect(middlewareCalls.sort()).toEqual(['Manga.stats', 'Manga.title_en']);
  });

  it('keep their @Authorized rule on /graphql: refused when anonymous, answered with a caller', async () => {
    await buildManga(t.orm, { slug: 'guarded', synopsis_en: 'Only for members' });
    const document = '{ manga(slug: "guarded") { slug synopsis_en } }';
    const anonymous = await gql(t.app, document);
    // The field is nullable: it alone is refused.
    expect(anonymous.body.data).toEqual({ manga: { slug: 'guarded', synopsis_en: null } });
    expect(anonymous.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['manga', 'synopsis_en']]);
    expect(anonymous.body.errors[0].extensions.code).toBe('auth:missing_token');
    const token = await buildToken(t.orm, await buildUser(t.orm));
    const member = await gql(t.app, document, {}, { token });
    expect(member.body.data).toEqual({ manga: { slug: 'guarded', synopsis_en: 'Only for members' } });
  });
});

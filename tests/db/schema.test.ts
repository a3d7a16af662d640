import {
  getNamedType,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';
import { buildAppSchema } from '../../src/schema';
import { NSFW_GENRES } from '../../src/catalog/title-filters';
import { buildGenre, buildNovel, linkTitle } from '../factories';
import { openTestOrm } from '../setup/db';
import { useTestApp } from '../setup/harness';

describe('database schema', () => {
  it('is exactly what the entities describe once the committed migrations ran', async () => {
    const orm = await openTestOrm();
    try {
      const pending = await orm.schema.getUpdateSchemaSQL({ wrap: false });
      expect(pending.trim()).toBe('');
    } finally {
      await orm.close();
    }
  });
});

describe('GraphQL schema', () => {
  it('exposes no credential, hash or secret field of the entities behind it', async () => {
    // Output types only: the signup and login inputs take an email and a password by design.
    const schema = await buildAppSchema();
    const outputFields = Object.values(schema.getTypeMap())
      .filter((type) => !type.name.startsWith('__'))
      .filter(
        (type): type is GraphQLObjectType | GraphQLInterfaceType =>
          isObjectType(type) || isInterfaceType(type),
      )
      .flatMap((type) => Object.keys(type.getFields()).map((field) => `${type.name}.${field}`));
    expect(outputFields).toContain('User.username');
    // The one exception: the caller's own address, on the type only `me` answers (below).
    expect(
      outputFields.filter((field) =>
        /password|_hash|activation_token|forbidden_actions|\bemail\b/.test(field),
      ),
    ).toEqual(['UserWithEmail.email']);
  });

  it('answers the caller’s own account (with its email) from `me` alone', async () => {
    const schema = await buildAppSchema();
    const fieldsOfType = Object.values(schema.getTypeMap())
      .filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'))
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((field) => getNamedType(field.type).name === 'UserWithEmail')
          .map((field) => `${type.name}.${field.name}`),
      );
    expect(fieldsOfType).toEqual(['Query.me']);
  });
});

describe('NSFW genre flag (has_nsfw_genre)', () => {
  const t = useTestApp();
  const flagOf = async (slug: string): Promise<boolean> => {
    const [row] = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ flag: boolean }[]>('select has_nsfw_genre as flag from novel where slug = ?', [slug]);
    return row.flag;
  };

  it('names the same genres in SQL as the service does', async () => {
    const [row] = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ slugs: string[] }[]>('select nsfw_genre_slugs() as slugs');
    expect(row.slugs).toEqual([...NSFW_GENRES]);
  });

  it('follows the genre links and genre slugs, in bulk too', async () => {
    const [nsfw, other] = [
      await buildGenre(t.orm, { slug: 'ecchi' }),
      await buildGenre(t.orm, { slug: 'drama' }),
    ];
    const novels = await Promise.all(['n1', 'n2', 'n3'].map((slug) => buildNovel(t.orm, { slug })));
    await linkTitle(t.orm, novels[0], { genres: [nsfw, other] });
    await linkTitle(t.orm, novels[1], { genres: [other] });
    expect([await flagOf('n1'), await flagOf('n2'), await flagOf('n3')]).toEqual([true, false, false]);

    const connection = t.orm.em.fork().getConnection();
    // One statement linking several titles.
    await connection.execute(
      `insert into novel_genres (novel_reference, genre_reference) select reference, ? from novel where slug in ('n2', 'n3')`,
      [nsfw.reference],
    );
    expect([await flagOf('n2'), await flagOf('n3')]).toEqual([true, true]);
    await connection.execute('delete from novel_genres where genre_reference = ? and novel_reference = ?', [
      nsfw.reference,
      novels[1].reference,
    ]);
    expect(await flagOf('n2')).toBe(false);
    // A renamed genre is no longer an NSFW one, and the other way round.
    await connection.execute(`update genre set slug = 'comedy' where slug = 'ecchi'`);
    expect([await flagOf('n1'), await flagOf('n3')]).toEqual([false, false]);
    await connection.execute(`update genre set slug = 'hentai' where slug = 'drama'`);
    expect([await flagOf('n1'), await flagOf('n2')]).toEqual([true, true]);
  });
});

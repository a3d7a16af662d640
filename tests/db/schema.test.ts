import { type GraphQLInterfaceType, type GraphQLObjectType, isInterfaceType, isObjectType } from 'graphql';
import { buildAppSchema } from '../../src/schema';
import { openTestOrm } from '../setup/db';

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
    expect(
      outputFields.filter((field) =>
        /password|_hash|activation_token|forbidden_actions|\bemail\b/.test(field),
      ),
    ).toEqual([]);
  });
});

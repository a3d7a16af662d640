import { buildAppSchema, printAppSchema } from '../../src/schema';
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
    const printed = printAppSchema(await buildAppSchema());
    expect(printed).not.toMatch(/password|_hash|secret_hash|activation_token|forbidden_actions|\bemail\b/);
  });
});

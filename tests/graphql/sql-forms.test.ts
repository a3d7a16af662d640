import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import {
  SqlForms,
  sqlFields,
  sqlFormsOf,
  type SqlRoot,
  sqlRoot,
  sqlRowType,
  sqlValue,
  withSqlForms,
} from '../../src/graphql/sql-plan/fields';

class Thing {}
class Row {}

describe('SQL forms declared explicitly', () => {
  const thingRoot: SqlRoot = { kind: 'one', type: Thing, rows: (alias) => ({ from: `thing ${alias}` }) };
  const root = sqlRoot('thing', thingRoot);

  it('are looked up by class, field and root field', () => {
    const forms = new SqlForms([
      sqlFields(Thing, { name: sqlValue((row) => `${row}.name`) }),
      sqlRowType(Row),
      root,
    ]);
    expect(forms.ownField(Thing, 'name')?.kind).toBe('value');
    expect(forms.ownField(Thing, 'other')).toBeUndefined();
    expect(forms.isRowType(Row)).toBe(true);
    expect(forms.isRowType(Thing)).toBe(false);
    expect(forms.rootOf('thing')).toBe(thingRoot);
    expect(forms.declaredFields()).toEqual([{ type: Thing, field: 'name' }]);
  });

  it('refuse a field or root declared twice', () => {
    const name = sqlFields(Thing, { name: sqlValue((row) => `${row}.name`) });
    expect(() => new SqlForms([name, name])).toThrow('SQL form of Thing.name declared twice');
    expect(() => new SqlForms([root, root])).toThrow('SQL root thing declared twice');
  });

  it('travel with the schema they are attached to, and a schema without them says so', () => {
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { thing: { type: GraphQLString } } }),
    });
    const forms = new SqlForms([root]);
    expect(sqlFormsOf(withSqlForms(schema, forms))).toBe(forms);
    expect(() => sqlFormsOf(schema)).toThrow('the schema has no SQL forms');
  });
});

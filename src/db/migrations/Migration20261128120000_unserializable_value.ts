import { Migration } from '@mikro-orm/migrations';

/**
 * `unserializable_value(scalar, value)`: raises SQLSTATE `GQ001`. Queries compiled to
 * SQL (src/graphql/sql-plan) call it where a stored value is one a GraphQL scalar's
 * `serialize` refuses (an unknown enum value, an infinite time), so that the plan stops
 * and the request executes through its resolvers, which report the error as they do.
 * It returns json, the type every compiled value takes in its CASE (`to_json`).
 * Stable, not immutable: a call with constant arguments must not be folded at planning.
 */
export class Migration20261128120000_unserializable_value extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function unserializable_value(scalar text, value text) returns json language plpgsql stable as $$
      begin
        raise exception using errcode = 'GQ001', message = format('%s cannot represent the stored value %L', scalar, value);
      end
    $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function unserializable_value(text, text);`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * Client secrets are kept sealed (src/clients/client-secret-box.ts): the column says
 * so, and an instance of an older version, which would read a sealed value as the
 * secret, fails instead. The rows still hold plaintext here; sealing needs the
 * service's key, which migrations do not have, so the data step right after the
 * migrations seals them (src/clients/seal-stored-secrets.ts, run by the same `migrate`).
 */
export class Migration20261128000500_sealed_client_secrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "client" rename column "secret" to "sealed_secret";`);
  }

  /** The values stay sealed: an older version cannot use them until each owner revokes the secret. */
  override async down(): Promise<void> {
    this.addSql(`alter table "client" rename column "sealed_secret" to "secret";`);
  }
}

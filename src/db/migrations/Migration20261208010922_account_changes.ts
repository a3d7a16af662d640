import { Migration } from '@mikro-orm/migrations';

/** Profile settings (pages.md "Settings"): an email waiting for confirmation, and when the username and email last changed. */
export class Migration20261208010922_account_changes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "user" add column "pending_email" text null, add column "username_changed" timestamptz null, add column "email_changed" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "user" drop column "pending_email", drop column "username_changed", drop column "email_changed";`);
  }

}

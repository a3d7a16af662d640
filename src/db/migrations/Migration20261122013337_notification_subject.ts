import { Migration } from '@mikro-orm/migrations';

/** The item a notification concerns, for the vote anti-spam rule (semantics §4). */
export class Migration20261122013337_notification_subject extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "notification" add column "subject" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "notification" drop column "subject";`);
  }

}

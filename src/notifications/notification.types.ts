import { Field, Int, ObjectType } from 'type-graphql';
import { PagedType } from '../common/pagination/pagination';
import { Notification } from './notification.entity';

@ObjectType()
export class NotificationPage extends PagedType(Notification) {}

/** GET /notifications/count: `{"unseen": integer}`. */
@ObjectType()
export class NotificationCount {
  @Field(() => Int, { description: "The number of the caller's unseen notifications." })
  unseen!: number;

  constructor(unseen: number) {
    this.unseen = unseen;
  }
}

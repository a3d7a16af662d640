import { NOTIFICATION_TYPES } from '../common/enums';
import { valueListType } from '../common/scalars/value-list';

/** A notification type (semantics §5), as a string scalar like every enumeration of the service. */
export const NotificationTypeEnum = valueListType('NotificationType', NOTIFICATION_TYPES);

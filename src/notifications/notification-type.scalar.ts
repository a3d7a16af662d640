import { NOTIFICATION_TYPES } from '../common/enums';
import { enumScalar } from '../common/scalars/enum.scalar';

/** A notification type (semantics §5), as a string scalar like every enumeration of the service. */
export const NotificationTypeScalar = enumScalar('NotificationType', NOTIFICATION_TYPES);

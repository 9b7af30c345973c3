import { deleteStaffNotification } from './deleteStaffNotification.js';
import { getStaffNotification } from './getStaffNotification.js';
import { listStaffMessages } from './listStaffMessages.js';
import { listStaffNotifications } from './listStaffNotifications.js';
import { updateStaffNotificationStatus } from './updateStaffNotificationStatus.js';

export const staffNotificationHandlers = { listStaffNotifications, getStaffNotification, updateStaffNotificationStatus, deleteStaffNotification, listStaffMessages };

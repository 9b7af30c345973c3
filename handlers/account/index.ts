import { changeEmail } from './changeEmail.js';
import { changePhoneNumber } from './changePhoneNumber.js';
import { deleteAccount } from './deleteAccount.js';
import { deleteNotification } from './deleteNotification.js';
import { getAccount } from './getAccount.js';
import { getMiniStatement } from './getMiniStatement.js';
import { getNotification } from './getNotification.js';
import { listAccountMessages } from './listAccountMessages.js';
import { listNotifications } from './listNotifications.js';
import { sendVerificationCode } from './sendVerificationCode.js';
import { updateAccount } from './updateAccount.js';
import { updateNotificationStatus } from './updateNotificationStatus.js';
import { verifyAccount } from './verifyAccount.js';

export const accountHandlers = {
  getAccount, getMiniStatement, updateAccount, deleteAccount, sendVerificationCode, verifyAccount, changePhoneNumber, changeEmail,
  listNotifications, getNotification, updateNotificationStatus, deleteNotification, listAccountMessages,
};

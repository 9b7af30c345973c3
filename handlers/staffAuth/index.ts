import { changeStaffPassword } from './changeStaffPassword.js';
import { confirmStaffContactChange } from './confirmStaffContactChange.js';
import { getStaffProfile } from './getStaffProfile.js';
import { listStaffPermissions } from './listStaffPermissions.js';
import { refreshStaffToken } from './refreshStaffToken.js';
import { requestStaffPasswordReset } from './requestStaffPasswordReset.js';
import { resetStaffPassword } from './resetStaffPassword.js';
import { staffLogin } from './staffLogin.js';
import { staffLogout } from './staffLogout.js';

export const staffAuthHandlers = {
  staffLogin, refreshStaffToken, staffLogout, changeStaffPassword, requestStaffPasswordReset, resetStaffPassword, getStaffProfile, listStaffPermissions,
  confirmStaffContactChange,
};

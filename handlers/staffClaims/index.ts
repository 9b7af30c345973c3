import { listStaffClaims } from './listStaffClaims.js';

export const staffClaimHandlers = { listStaffClaims };

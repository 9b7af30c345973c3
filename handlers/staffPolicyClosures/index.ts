import { approvePolicyClosure } from './approvePolicyClosure.js';
import { getStaffPolicyClosure } from './getStaffPolicyClosure.js';
import { listStaffPolicyClosures } from './listStaffPolicyClosures.js';
import { rejectPolicyClosure } from './rejectPolicyClosure.js';
import { requestPolicyClosureForClient } from './requestPolicyClosureForClient.js';

export const staffPolicyClosureHandlers = { listStaffPolicyClosures, getStaffPolicyClosure, approvePolicyClosure, rejectPolicyClosure, requestPolicyClosureForClient };

import { deletePolicyClosure } from './deletePolicyClosure.js';
import { getPolicyClosure } from './getPolicyClosure.js';
import { listPolicyClosures } from './listPolicyClosures.js';
import { requestPolicyClosure } from './requestPolicyClosure.js';
import { updatePolicyClosure } from './updatePolicyClosure.js';

export const policyClosureHandlers = {
  requestPolicyClosure, listPolicyClosures, getPolicyClosure, updatePolicyClosure, deletePolicyClosure,
};

import { createPolicy } from './createPolicy.js';
import { typedCreateHandlers } from './createTypedPolicy.js';
import { deletePolicy } from './deletePolicy.js';
import { getPolicy } from './getPolicy.js';
import { listPolicies } from './listPolicies.js';
import { listPolicyHistory } from './listPolicyHistory.js';
import { listPolicyTypes } from './listPolicyTypes.js';
import { renewPolicy } from './renewPolicy.js';
import { updatePolicy } from './updatePolicy.js';

export const policyHandlers = {
  createPolicy,
  listPolicies,
  listPolicyTypes,
  getPolicy,
  updatePolicy,
  deletePolicy,
  renewPolicy,
  listPolicyHistory,
  ...typedCreateHandlers,
};

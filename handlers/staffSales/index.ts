import { checkoutCartForClient } from './checkoutCartForClient.js';
import { createPolicyForClient } from './createPolicyForClient.js';
import { quotePolicyForClient } from './quotePolicyForClient.js';
import { getStaffPolicy } from './getStaffPolicy.js';
import { listStaffPolicies } from './listStaffPolicies.js';
import { listStaffPolicyHistory } from './listStaffPolicyHistory.js';
import { movePolicyState } from './movePolicyState.js';
import { renewStaffPolicy } from './renewStaffPolicy.js';

export const staffSalesHandlers = { quotePolicyForClient, createPolicyForClient, listStaffPolicies, getStaffPolicy, renewStaffPolicy, checkoutCartForClient,
  movePolicyState, listStaffPolicyHistory };

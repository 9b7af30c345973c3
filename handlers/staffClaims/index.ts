import { closeClaim } from './closeClaim.js';
import { createClaimForClient } from './createClaimForClient.js';
import { getSettlementLimits } from './getSettlementLimits.js';
import { getStaffClaim } from './getStaffClaim.js';
import { listStaffClaims } from './listStaffClaims.js';
import { moveClaimStage } from './moveClaimStage.js';
import { reviewClaim } from './reviewClaim.js';
import { setSettlementLimits } from './setSettlementLimits.js';
import { settleClaim } from './settleClaim.js';

export const staffClaimHandlers = { listStaffClaims, getStaffClaim, reviewClaim, moveClaimStage, settleClaim, closeClaim, createClaimForClient, getSettlementLimits, setSettlementLimits };

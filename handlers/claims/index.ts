import { createClaim } from './createClaim.js';
import { deleteClaim } from './deleteClaim.js';
import { getClaim } from './getClaim.js';
import { listClaims } from './listClaims.js';

export const claimHandlers = { createClaim, listClaims, getClaim, deleteClaim };

import { exportCommissionStatement } from './exportCommissionStatement.js';
import { getCommissionStatement } from './getCommissionStatement.js';

export const staffCommissionHandlers = { getCommissionStatement, exportCommissionStatement };

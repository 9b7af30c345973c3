import { listAuditEvents } from './listAuditEvents.js';

export const staffAuditTrailHandlers = { listAuditEvents };

import { createCompany } from './createCompany.js';
import { createCompanyApiKey } from './createCompanyApiKey.js';
import { getOperatorCompany } from './getOperatorCompany.js';
import { listCompanyAuditEvents } from './listCompanyAuditEvents.js';
import { listOperatorCompanies } from './listOperatorCompanies.js';
import { restoreExecutiveManager } from './restoreExecutiveManager.js';
import { revokeCompanyApiKey } from './revokeCompanyApiKey.js';
import { updateOperatorCompany } from './updateOperatorCompany.js';
import { uploadCompanyLogo } from './uploadCompanyLogo.js';

export const operatorHandlers = {
  createCompany, listOperatorCompanies, getOperatorCompany, updateOperatorCompany, uploadCompanyLogo, createCompanyApiKey, revokeCompanyApiKey,
  restoreExecutiveManager, listCompanyAuditEvents,
};

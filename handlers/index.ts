import { accountHandlers } from './account/index.js';
import { authHandlers } from './auth/index.js';
import { cartHandlers } from './cart/index.js';
import { claimHandlers } from './claims/index.js';
import { deliveryAddressHandlers } from './deliveryAddresses/index.js';
import { directDebitHandlers } from './directDebits/index.js';
import { documentHandlers } from './documents/index.js';
import { eventHandlers } from './events/index.js';
import { invoiceHandlers } from './invoices/index.js';
import { lookupHandlers } from './lookups/index.js';
import { operatorHandlers } from './operator/index.js';
import { policyClosureHandlers } from './policyClosures/index.js';
import { policyHandlers } from './policies/index.js';
import { productHandlers } from './products/index.js';
import { quoteHandlers } from './quotes/index.js';
import { sandboxMessageHandlers } from './sandboxMessages/index.js';
import { sandboxPaymentHandlers } from './sandboxPayments/index.js';
import { staffAuthHandlers } from './staffAuth/index.js';
import { staffClaimHandlers } from './staffClaims/index.js';
import { staffCommissionHandlers } from './staffCommissions/index.js';
import { staffAuditTrailHandlers } from './staffAuditTrail/index.js';
import { webhookEndpointHandlers } from './webhookEndpoints/index.js';
import { staffPaymentHandlers } from './staffPayments/index.js';
import { staffPolicyClosureHandlers } from './staffPolicyClosures/index.js';
import { staffSalesHandlers } from './staffSales/index.js';
import { staffNotificationHandlers } from './staffNotifications/index.js';
import { staffOrganisationHandlers } from './staffOrganisation/index.js';
import { staffProductHandlers } from './staffProducts/index.js';
import { staffClientsHandlers } from './staffClients/index.js';
import { systemHandlers } from './system/index.js';
import { transactionHandlers } from './transactions/index.js';
import { webhookHandlers } from './webhooks/index.js';

/** Every operation in the contract, by operationId (server/app/routes.ts checks it is every one, and no other). */
export const handlers = {
  ...systemHandlers,
  ...authHandlers,
  ...lookupHandlers,
  ...accountHandlers,
  ...deliveryAddressHandlers,
  ...documentHandlers,
  ...productHandlers,
  ...policyHandlers,
  ...quoteHandlers,
  ...policyClosureHandlers,
  ...claimHandlers,
  ...transactionHandlers,
  ...invoiceHandlers,
  ...cartHandlers,
  ...directDebitHandlers,
  ...sandboxPaymentHandlers,
  ...sandboxMessageHandlers,
  ...webhookHandlers,
  ...staffAuthHandlers,
  ...staffSalesHandlers,
  ...staffPaymentHandlers,
  ...staffClaimHandlers,
  ...staffPolicyClosureHandlers,
  ...staffNotificationHandlers,
  ...staffOrganisationHandlers,
  ...operatorHandlers,
  ...staffProductHandlers,
  ...staffClientsHandlers,
  ...staffCommissionHandlers,
  ...staffAuditTrailHandlers,
  ...webhookEndpointHandlers,
  ...eventHandlers,
};

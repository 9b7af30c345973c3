import { createTransactionForClient } from './createTransactionForClient.js';
import { listStaffInvoices } from './listStaffInvoices.js';
import { listStaffTransactions } from './listStaffTransactions.js';

export const staffPaymentHandlers = { listStaffInvoices, listStaffTransactions, createTransactionForClient };

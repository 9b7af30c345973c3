import { approveTransaction } from './approveTransaction.js';
import { createTransactionForClient } from './createTransactionForClient.js';
import { getStaffTransaction } from './getStaffTransaction.js';
import { listStaffInvoices } from './listStaffInvoices.js';
import { listStaffTransactions } from './listStaffTransactions.js';
import { rejectTransaction } from './rejectTransaction.js';

export const staffPaymentHandlers = {
  listStaffInvoices, listStaffTransactions, getStaffTransaction, createTransactionForClient, approveTransaction, rejectTransaction,
};

import { approveTransaction } from './approveTransaction.js';
import { createTransactionForClient } from './createTransactionForClient.js';
import { getStaffTransaction } from './getStaffTransaction.js';
import { listStaffInvoices } from './listStaffInvoices.js';
import { listStaffTransactions } from './listStaffTransactions.js';
import { rejectTransaction } from './rejectTransaction.js';
import { createDirectDebitForClient } from './createDirectDebitForClient.js';
import { cancelDirectDebitForClient } from './cancelDirectDebitForClient.js';
import { downloadStaffReceipt } from './downloadStaffReceipt.js';
import { getStaffInvoice } from './getStaffInvoice.js';
import { createStaffInvoice } from './createStaffInvoice.js';

export const staffPaymentHandlers = {
  listStaffInvoices, listStaffTransactions, getStaffTransaction, createTransactionForClient, approveTransaction, rejectTransaction,
  createDirectDebitForClient, cancelDirectDebitForClient, downloadStaffReceipt, getStaffInvoice, createStaffInvoice,
};

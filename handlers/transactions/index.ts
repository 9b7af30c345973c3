import { createTransaction } from './createTransaction.js';
import { downloadReceipt } from './downloadReceipt.js';
import { getTransaction } from './getTransaction.js';
import { listTransactions } from './listTransactions.js';

export const transactionHandlers = { createTransaction, listTransactions, getTransaction, downloadReceipt };

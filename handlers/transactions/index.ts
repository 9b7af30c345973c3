import { createTransaction } from './createTransaction.js';
import { listTransactions } from './listTransactions.js';

export const transactionHandlers = { createTransaction, listTransactions };

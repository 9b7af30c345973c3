import { cancelDirectDebit } from './cancelDirectDebit.js';
import { createDirectDebit } from './createDirectDebit.js';
import { getDirectDebit } from './getDirectDebit.js';
import { listDirectDebits } from './listDirectDebits.js';

export const directDebitHandlers = { createDirectDebit, listDirectDebits, getDirectDebit, cancelDirectDebit };

import { getExternalInvoice } from './getExternalInvoice.js';
import { getInvoice } from './getInvoice.js';
import { listInvoices } from './listInvoices.js';

export const invoiceHandlers = { listInvoices, getInvoice, getExternalInvoice };

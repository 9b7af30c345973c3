import { getExternalInvoice } from './getExternalInvoice.js';
import { listInvoices } from './listInvoices.js';

export const invoiceHandlers = { listInvoices, getExternalInvoice };

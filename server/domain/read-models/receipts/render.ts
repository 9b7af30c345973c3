import type { Readable } from 'node:stream';
import { Decimal } from 'decimal.js';
import PDFDocument from 'pdfkit';
import { ToWords } from 'to-words';
import type { PaymentMethod } from '../../../platform/db/schema.js';

/**
 * A payment's official receipt as a PDF: everything it shows comes in `ReceiptData` (receipt.ts
 * reads it), so this module only lays it out. A4, PDF's built-in Helvetica (nothing embedded,
 * nothing fetched), streamed as it is written.
 */

export interface ReceiptData {
  /** The tenant: the company that received the money and issues the receipt. */
  company: { name: string; address: string | null; country: string | null; email: string | null };
  receiptNo: string;
  issuedAt: Date;
  transactionNo: string;
  /** The day the money was paid, `YYYY-MM-DD`. */
  paymentDate: string;
  /** Who paid: the payment's payee, else the client. */
  payer: string;
  /** The client the policies belong to. */
  policyholder: string;
  policies: Array<{ policyNo: string; type: string; insurer: string | null }>;
  invoice: { invoiceNo: string; currency: string; amount: Decimal.Value };
  /** What the invoice still needed once this payment and the confirmed ones before it were counted (negative: overpaid). */
  balanceAfter: Decimal.Value;
  amount: Decimal.Value;
  currency: string;
  method: PaymentMethod;
  transactionType: 'RENEWAL' | 'EXTENSION' | 'NEW_BUSINESS' | null;
  institution: string | null;
  cheque: { chequeNo: string; chequeDate: string | null; chequeType: string | null; nameOnCheque: string | null } | null;
  mobileNumber: string | null;
  description: string | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-11-21` -> `21 November 2026` (the calendar day as written, no time zone). */
export function longDate(day: string): string {
  const [year, month, date] = day.slice(0, 10).split('-').map(Number);
  return `${date} ${MONTHS[month - 1]} ${year}`;
}

/** `GHS 3,722.50`: the currency code, then the amount to the pesewa with thousands grouped. */
export function money(currency: string, amount: Decimal.Value): string {
  const fixed = new Decimal(amount).toFixed(2);
  const [whole, cents] = fixed.replace('-', '').split('.');
  return `${fixed.startsWith('-') ? '-' : ''}${currency} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

const ghanaWords = new ToWords({ localeCode: 'en-GH' });

/**
 * The amount in words, as cheques and receipts write it: cedis and pesewas for GHS
 * (`Five Hundred Cedis Only`); for another currency the number in words with its code
 * (`One Thousand Two Hundred USD And 45/100 Only`).
 */
export function amountInWords(amount: Decimal.Value, currency: string): string {
  const fixed = new Decimal(amount).toFixed(2);
  if (currency === 'GHS') return ghanaWords.convert(fixed, { currency: true });
  const [whole, cents] = fixed.split('.');
  return `${ghanaWords.convert(whole)} ${currency}${cents === '00' ? '' : ` And ${cents}/100`} Only`;
}

const METHODS: Record<PaymentMethod, string> = {
  ONLINE: 'Card (online checkout)',
  MOBILE_MONEY: 'Mobile money',
  CASH: 'Cash',
  CHEQUE: 'Cheque',
  BANK_TRANSFER: 'Bank transfer',
  UNSPECIFIED: 'Other',
};
const TRANSACTION_TYPES = { NEW_BUSINESS: 'New business', RENEWAL: 'Renewal', EXTENSION: 'Extension' } as const;

/** The payment method line, with the cheque's or wallet's details when there are any. */
export function methodLine(data: Pick<ReceiptData, 'method' | 'institution' | 'cheque' | 'mobileNumber'>): string {
  const parts = [METHODS[data.method]];
  if (data.cheque) {
    parts[0] = `Cheque No ${data.cheque.chequeNo}${data.cheque.chequeType ? ` (${data.cheque.chequeType})` : ''}`;
    if (data.cheque.chequeDate) parts.push(`dated ${longDate(data.cheque.chequeDate)}`);
    if (data.cheque.nameOnCheque) parts.push(`drawn by ${data.cheque.nameOnCheque}`);
  }
  if (data.method === 'MOBILE_MONEY' && data.mobileNumber) parts.push(data.mobileNumber);
  if (data.institution) parts.push(data.institution);
  return parts.join(', ');
}

// A4 in points, and the page's frame.
const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const INK = '#1a1a1a';
const MUTED = '#5f6368';
const RULE = '#c8ccd0';

/** Renders the receipt; the PDF's bytes stream out of the answer as pdfkit writes them. */
export function renderReceipt(data: ReceiptData): Readable {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    font: 'Helvetica',
    info: {
      Title: `Receipt ${data.receiptNo}`,
      Author: data.company.name,
      Subject: `Payment ${data.transactionNo} for invoice ${data.invoice.invoiceNo}`,
      Creator: 'Coverline',
      // The issue time, not the download's: every copy of a receipt is the same document.
      CreationDate: data.issuedAt,
    },
  });
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const rule = (y: number) => doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor(RULE).stroke();

  // The company issuing it.
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text(data.company.name, left, PAGE.margin, { width });
  const contact = [data.company.address, data.company.country, data.company.email].filter(Boolean).join('  |  ');
  if (contact) doc.moveDown(0.2).font('Helvetica').fontSize(9).fillColor(MUTED).text(contact, { width });
  rule(doc.y + 10);

  // Title, number and dates.
  doc.y += 24;
  const titleTop = doc.y;
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(22).text('Official receipt', left, titleTop, { width: width / 2 });
  doc.font('Helvetica-Bold').fontSize(12).text(`Receipt No ${data.receiptNo}`, left + width / 2, titleTop + 2, { width: width / 2, align: 'right' });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED)
    .text(`Issued ${longDate(data.issuedAt.toISOString())}`, left + width / 2, doc.y + 2, { width: width / 2, align: 'right' });
  doc.y = Math.max(doc.y, titleTop + 30) + 18;

  // The details, a label column and a value column.
  const labelWidth = 150;
  const row = (label: string, value: string) => {
    const top = doc.y;
    doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(label, left, top, { width: labelWidth - 10 });
    const labelBottom = doc.y;
    doc.font('Helvetica').fontSize(10).fillColor(INK).text(value, left + labelWidth, top, { width: width - labelWidth });
    doc.y = Math.max(doc.y, labelBottom) + 6;
  };
  row('Receipt number', data.receiptNo);
  row('Transaction number', data.transactionNo);
  row('Date of payment', longDate(data.paymentDate));
  row('Date issued', longDate(data.issuedAt.toISOString()));
  row('Received from', data.payer);
  if (data.payer !== data.policyholder) row('Policyholder', data.policyholder);
  row(data.policies.length > 1 ? 'Policies' : 'Policy', data.policies.length === 0 ? '-'
    : data.policies.map((p) => [p.policyNo, p.type, p.insurer].filter(Boolean).join('  |  ')).join('\n'));
  row('Invoice', `${data.invoice.invoiceNo}, ${money(data.invoice.currency, data.invoice.amount)}`);
  row('Payment method', methodLine(data));
  if (data.transactionType) row('Payment for', TRANSACTION_TYPES[data.transactionType]);
  if (data.description) row('Description', data.description);

  // The amount, in figures and in words.
  doc.y += 10;
  const boxTop = doc.y;
  const pad = 14;
  const words = amountInWords(data.amount, data.currency);
  doc.font('Helvetica').fontSize(10);
  const wordsHeight = doc.heightOfString(words, { width: width - 2 * pad });
  const boxHeight = pad + 12 + 6 + 22 + 8 + 12 + 4 + wordsHeight + pad;
  doc.rect(left, boxTop, width, boxHeight).fillAndStroke('#f4f6f8', RULE);
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text('Amount received', left + pad, boxTop + pad, { width: width - 2 * pad });
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text(money(data.currency, data.amount), left + pad, doc.y + 6, { width: width - 2 * pad });
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text('In words', left + pad, doc.y + 8, { width: width - 2 * pad });
  doc.fillColor(INK).font('Helvetica-Oblique').fontSize(10).text(words, left + pad, doc.y + 4, { width: width - 2 * pad });
  doc.y = boxTop + boxHeight + 16;

  // What the invoice still needed after this payment.
  const balance = new Decimal(data.balanceAfter);
  const balanceText = balance.isNegative()
    ? `Invoice ${data.invoice.invoiceNo} is paid in full; ${money(data.invoice.currency, balance.neg())} was paid over its amount.`
    : balance.isZero()
      ? `Invoice ${data.invoice.invoiceNo} is paid in full with this payment.`
      : `Balance remaining on invoice ${data.invoice.invoiceNo} after this payment: ${money(data.invoice.currency, balance)}`;
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(10).text(balanceText, left, doc.y, { width });

  // Footer, at the foot of the page (the next page's, should a long list of policies reach it).
  const footerTop = PAGE.height - PAGE.margin - 48;
  if (doc.y > footerTop - 24) doc.addPage();
  doc.page.margins.bottom = 0; // the footer sits in the bottom margin; nothing may break it onto a page of its own
  rule(footerTop - 10);
  doc.fillColor(MUTED).font('Helvetica').fontSize(8).text(
    `This receipt acknowledges money received by ${data.company.name} and applied to the invoice above. `
      + 'It was issued electronically and is valid without a signature. '
      + 'Balances count payments confirmed up to this one; payments still awaiting approval are not included.',
    left, footerTop, { width, lineGap: 1.5 },
  );
  doc.text(`${data.receiptNo}  |  ${data.transactionNo}  |  ${data.invoice.invoiceNo}`, left, doc.y + 4, { width, align: 'right' });

  doc.end();
  return doc;
}

import { Decimal } from 'decimal.js';
import { HtmlError } from '../../server/platform/errors.js';
import type { FileResult } from '../../server/platform/files.js';
import { checkoutPath, promptPath, type SandboxCheckout, type SandboxPayment, type SandboxPrompt } from '../../server/domain/money/sandbox-payments.js';

/**
 * The sandbox provider's pages: plain HTML, no script and nothing loaded from elsewhere, so they
 * work under a strict Content-Security-Policy; every value written into them is escaped.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attribute values. */
export const escapeHtml = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** `GHS 3,722.50`. */
export function formatMoney(currency: string, amount: Decimal.Value) {
  const [whole, cents] = new Decimal(amount).toFixed(2).split('.');
  return `${currency} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** The pages' own policy: inline style only, forms posting back here, never framed. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
};

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #f4f5f7; }
  body { margin: 0; }
  main { max-width: 28rem; margin: 2.5rem auto; padding: 1.5rem; background: #fff; border-radius: 0.75rem; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  .sandbox { display: inline-block; margin: 0 0 1rem; padding: 0.2rem 0.6rem; border-radius: 1rem; background: #fff3cd; color: #5c4400; font-size: 0.85rem; }
  dl { margin: 0 0 1.5rem; }
  dl div { display: flex; justify-content: space-between; gap: 1rem; padding: 0.45rem 0; border-bottom: 1px solid #e3e5e8; }
  dt { color: #4a4f57; }
  dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
  form { display: grid; gap: 0.6rem; }
  button { font: inherit; padding: 0.75rem 1rem; border-radius: 0.5rem; border: 1px solid #8a9099; background: #fff; color: #1a1a1a; cursor: pointer; }
  button.primary { background: #0b5cad; border-color: #0b5cad; color: #fff; font-weight: 600; }
  button:focus-visible { outline: 3px solid #f0a800; outline-offset: 2px; }
  .note { color: #4a4f57; font-size: 0.9rem; }
  .ok { color: #0d6b2f; } .bad { color: #a11d1d; }
`;

function document(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="sandbox">Sandbox: test mode, no real money moves</p>
${content}
</main>
</body>
</html>
`;
}

export function htmlPage(title: string, content: string): FileResult {
  return { kind: 'file', body: Buffer.from(document(title, content), 'utf8'), contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS };
}

/** A 404 page, thrown: `what` is the kind of page (checkout, prompt) the reference did not name. */
export function notFoundPage(what: string): HtmlError {
  const content = `<h1>${escapeHtml(what)} not found</h1>
<p>No sandbox ${escapeHtml(what.toLowerCase())} has this address. Check the link, or start a new payment.</p>`;
  return new HtmlError(404, 'NOT_FOUND', `${what} not found`, document(`${what} not found`, content), PAGE_HEADERS);
}

function details(payment: SandboxPayment, extra: Array<[string, string]> = []) {
  const rows: Array<[string, string]> = [
    ['Merchant', payment.merchant],
    ['Invoice', payment.invoiceNo],
    ['Payment', payment.transactionNo],
    ...extra,
    ['Amount', formatMoney(payment.currency, payment.amount)],
  ];
  return `<dl>\n${rows.map(([term, value]) => `<div><dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd></div>`).join('\n')}\n</dl>`;
}

function result(heading: string, tone: 'ok' | 'bad', message: string, payment: SandboxPayment, extra: Array<[string, string]> = []) {
  return `<h1 class="${tone}">${escapeHtml(heading)}</h1>
<p role="status">${escapeHtml(message)}</p>
${details(payment, extra)}
<p class="note">You can close this page.</p>`;
}

/** The hosted checkout: the buttons while it is open, else what became of it. */
export function checkoutPage({ payment, state }: SandboxCheckout): FileResult {
  const action = checkoutPath(payment.reference);
  const money = formatMoney(payment.currency, payment.amount);
  switch (state) {
    case 'open':
      return htmlPage(`Pay ${money} to ${payment.merchant}`, `<h1>Pay ${escapeHtml(payment.merchant)}</h1>
${details(payment)}
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="outcome" value="pay" class="primary">Pay ${escapeHtml(money)}</button>
<button type="submit" name="outcome" value="fail">Fail (card declined)</button>
<button type="submit" name="outcome" value="cancel">Cancel</button>
</form>
<p class="note">Pay completes the payment; Fail makes the card decline; Cancel abandons the checkout.</p>`);
    case 'paid':
      return htmlPage('Payment received', result('Payment received', 'ok', `${money} was paid for invoice ${payment.invoiceNo}. This checkout is complete and cannot be paid again.`, payment));
    case 'failed':
      return htmlPage('Payment failed', result('Payment failed', 'bad', `The card was declined; nothing was paid. Start a new payment to try again.`, payment));
    case 'cancelled':
      return htmlPage('Checkout cancelled', result('Checkout cancelled', 'bad', 'This checkout was cancelled; nothing was paid.', payment));
    case 'expired':
      return htmlPage('Checkout expired', result('Checkout expired', 'bad', 'This checkout was left unfinished for 30 minutes and has expired; nothing was paid. Start a new payment.', payment));
  }
}

/** The stand-in for the wallet holder's phone: the prompt while it waits, else its result. */
export function mobileMoneyPage({ payment, state }: SandboxPrompt): FileResult {
  const action = promptPath(payment.reference);
  const money = formatMoney(payment.currency, payment.amount);
  const wallet: Array<[string, string]> = [['Mobile number', payment.mobileNumber ?? '']];
  const testNumbers = '<p class="note">Test numbers: a number ending in 0000 always fails, even when approved; any other number pays when approved.</p>';
  switch (state) {
    case 'open':
      return htmlPage(`${payment.merchant} requests ${money}`, `<h1>${escapeHtml(payment.merchant)} requests ${escapeHtml(money)}</h1>
${details(payment, wallet)}
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="outcome" value="approve" class="primary">Approve</button>
<button type="submit" name="outcome" value="decline">Decline</button>
</form>
${testNumbers}`);
    case 'approved':
      return htmlPage('Payment approved', result('Payment approved', 'ok', `${money} was paid from ${payment.mobileNumber} for invoice ${payment.invoiceNo}.`, payment, wallet));
    case 'failed':
      return htmlPage('Payment failed', `${result('Payment failed', 'bad', 'The mobile money payment did not go through; nothing was paid.', payment, wallet)}\n${testNumbers}`);
  }
}

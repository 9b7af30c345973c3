import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { listeningHarness, type Harness } from '../helpers/harness.js';
import { signUp } from '../helpers/clients.js';

/**
 * The sandbox checkout in a real browser (Debian's Chromium, headless, driven by playwright-core;
 * no test tool downloads a browser): from a payment's `checkoutUrl`, through the Pay button, to the
 * result page, against the API listening on a real port; then the invoice is paid and the policy
 * has moved on. `.ci/run` installs Chromium before the suites; elsewhere the test skips itself,
 * saying so, when there is none.
 */

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const haveChromium = existsSync(executablePath);
if (!haveChromium && process.env.CI) throw new Error(`Chromium is required in CI at ${executablePath} (apt-get install chromium)`);
const suite = haveChromium ? describe : describe.skip;

suite(haveChromium ? 'the sandbox checkout in Chromium' : `the sandbox checkout in Chromium (SKIPPED: no Chromium at ${executablePath}; apt-get install chromium)`, () => {
  let h: Harness;
  let browser: Browser;

  beforeAll(async () => {
    ({ h } = await listeningHarness());
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-background-networking'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('pays an invoice from checkoutUrl: Pay, the result page, the invoice FULLY_PAID and the policy ACTIVE', async () => {
    const { token } = await signUp(h);
    const product = await h.db.selectFrom('products').select('id').where('distribution', '=', 'ONLINE').where('category', '=', 'HOME').executeTakeFirstOrThrow();
    const today = new Date().toISOString().slice(0, 10);
    const created = await h.call({
      method: 'POST', url: '/api/v1/client/policies', token, payload: {
        policyType: 'HOME', currency: 'GHS', startDate: today, endDate: new Date(Date.now() + 364 * 86_400_000).toISOString().slice(0, 10),
        productId: product.id, businessType: 'NEW_BUSINESS', assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
      },
    });
    expect(created.statusCode).toBe(201);
    const policy = created.json().data;
    const paid = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: { invoiceId: policy.invoice.id, paymentMethod: 'ONLINE' } });
    expect(paid.statusCode).toBe(201);
    const { checkoutUrl, amount } = paid.json().data;
    expect(checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/sandbox\/checkout\/sbx_chk_/);

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      const opened = await page.goto(checkoutUrl);
      expect(opened?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/^Pay /);
      const shown = `GHS ${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      expect(await page.locator('dd').allTextContents()).toEqual(expect.arrayContaining([policy.invoice.invoiceNo, shown]));
      await Promise.all([
        page.waitForURL(checkoutUrl, { waitUntil: 'load' }),
        page.getByRole('button', { name: `Pay ${shown}` }).click(),
      ]);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment received');
      await expect(page.getByRole('status').textContent()).resolves.toContain(`${shown} was paid for invoice ${policy.invoice.invoiceNo}`);
      expect(await page.getByRole('button').count()).toBe(0);
    } finally {
      await page.close();
    }
    // No CSP violation, no script error, nothing the page failed to load.
    expect(problems).toEqual([]);

    const invoices = (await h.call({ method: 'GET', url: '/api/v1/client/invoices?usePagination=false', token })).json().data;
    expect(invoices.find((i: { id: string }) => i.id === policy.invoice.id)).toMatchObject({ status: 'FULLY_PAID', isClosed: true, amountUnpaid: 0 });
    const after = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${policy.id}`, token })).json().data;
    expect(after).toMatchObject({ state: 'ACTIVE', isPaid: true });
  });
});

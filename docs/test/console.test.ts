/**
 * The demo console (/demo, issue 30) in the built site, against a running API on the embedded
 * database, driven in Chromium as its readers use it:
 * - a client signs up, buys an AUTO policy, pays in the sandbox checkout, sees it ACTIVE, downloads
 *   the receipt and files a claim; after signing out no token is left in the page's storage;
 * - a cash payment a client records is approved by a head of department (by keyboard alone) and the
 *   client's policy turns ACTIVE;
 * - an agent's console offers no approval, and a forced one shows the API's refusal;
 * - a claim is reviewed, moved to settlement and settled (which closes it) through the console;
 * - every screen passes axe-core's WCAG A/AA rules with no serious or critical violation, in light
 *   and dark mode, at 1280 px, at the seed's 996 px breakpoint and at 390 px.
 * Run with `npm run test:docs -- docs/test/console.test.ts` after `npm run docs:build`.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifacts, axeViolations, blocking, startStage, type Stage, type Violation } from './support.js';

const SANDBOX_API_KEY = 'sk_sandbox_coverline_0000000000000000';
const STAFF_PASSWORD = 'Sandbox-Staff-2026';
const PASSWORD = 's3cure-Pass';

let stage: Stage;
let site: Stage['site'];
let api: Stage['api'];
let browser: Browser;

/**
 * Access tokens last 75 s here (15 minutes by default): the console refreshes a token in its last
 * minute, so every session in these tests goes through refreshes, and one test watches them.
 */
const ACCESS_TOKEN_SECONDS = 75;

beforeAll(async () => {
  stage = await startStage({ JWT_TTL_SECONDS: String(ACCESS_TOKEN_SECONDS) });
  ({ site, api, browser } = stage);
}, 120_000);

afterAll(() => stage?.close());

// --- the API, called directly only to set up what a test is not about -------------------------

async function call<T = any>(method: string, route: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.url}${route}`, {
    method,
    headers: { 'Api-Key': SANDBOX_API_KEY, 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json() as { data: T };
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

const uniqueEmail = (who: string) => `${who}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
const today = () => new Date().toISOString().slice(0, 10);
const aYearOn = () => new Date(Date.now() + 364 * 86_400_000).toISOString().slice(0, 10);

async function staffToken(who: string): Promise<string> {
  return (await call<{ accessToken: string }>('POST', '/staff/auth/login', undefined, { username: `${who}@sandbox.coverline.example`, password: STAFF_PASSWORD })).accessToken;
}

/** The sandbox's home cover, as a client (`/client/products`) or a staff member (`/staff/products`) finds it. */
async function homeProductId(token: string, as: 'client' | 'staff' = 'client'): Promise<string> {
  return (await call<{ id: string }[]>('GET', `/${as}/products?category=HOME&distribution=ONLINE&limit=1`, token))[0].id;
}

const homeBody = (productId: string) => ({
  policyType: 'HOME', productId, businessType: 'NEW_BUSINESS', currency: 'GHS', startDate: today(), endDate: aYearOn(),
  assets: [{ sumInsured: 120000, usage: 'PRIVATE', description: 'Two-bedroom flat', location: 'Flat 3, Labone Crescent' }],
});

/** A client with a home policy paid through the sandbox checkout (ACTIVE from today) and a claim filed on it. */
async function clientWithClaim(): Promise<{ email: string; policyId: string; claim: { id: string; claimNo: string } }> {
  const email = uniqueEmail('claimant');
  const { accessToken: token } = await call('POST', '/auth/signup', undefined, { type: 'INDIVIDUAL', firstName: 'Kofi', lastName: 'Mensah', email, password: PASSWORD, country: 'GH', groups: [] });
  const policy = await call('POST', '/client/policies/home', token, homeBody(await homeProductId(token)));
  const payment = await call('POST', '/client/transactions', token, { invoiceId: policy.invoice.id, paymentMethod: 'ONLINE' });
  // The checkout's Pay button is one form post (the checkout page itself is tested in test/browser).
  const paid = await fetch(payment.checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'pay' }), redirect: 'manual' });
  expect(paid.status).toBe(303);
  const active = await call('GET', `/client/policies/${policy.id}`, token);
  expect(active.state).toBe('ACTIVE');
  const claim = await call('POST', '/client/claims', token, {
    policyId: policy.id, dateOfLoss: today(), incidentLocation: 'Labone', lossCategory: 'MEDICALS', assets: [active.assets[0].id],
    estimatedLossAmount: 2500, description: 'A burst pipe flooded the kitchen',
  });
  return { email, policyId: policy.id, claim };
}

// --- the console, as its readers use it ---------------------------------------------------------

async function openConsole(options: { width?: number; mode?: 'light' | 'dark' } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, acceptDownloads: true });
  // The API the console calls: the Send API Request panel's setting, as that panel stores it.
  await context.addInitScript((baseUrl) => {
    if (!window.sessionStorage.getItem('server')) {
      window.sessionStorage.setItem('server', JSON.stringify({ url: '{baseUrl}', variables: { baseUrl: { default: baseUrl } } }));
    }
  }, api.url);
  const page = await context.newPage();
  await page.goto(`${site.url}/demo?docusaurus-theme=${options.mode ?? 'light'}`, { waitUntil: 'load' });
  await expect(page.getByLabel('API base URL').inputValue()).resolves.toBe(api.url);
  return { context, page };
}

const consoleNav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

async function signUpClient(page: Page): Promise<string> {
  const email = uniqueEmail('console');
  await page.getByRole('button', { name: 'Client sign-up' }).click();
  await page.getByLabel('First name').fill('Ama');
  await page.getByLabel('Last name').fill('Owusu');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.getByRole('heading', { name: 'Products you can buy' }).waitFor();
  return email;
}

async function signInClient(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Client sign-in' }).click();
  await page.getByLabel('E-mail or phone number').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Products you can buy' }).waitFor();
}

async function signInStaff(page: Page, who: string): Promise<void> {
  await page.getByRole('button', { name: 'Staff sign-in' }).click();
  await page.getByLabel('E-mail or phone number').fill(`${who}@sandbox.coverline.example`);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Payments awaiting approval' }).waitFor();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: /sign-in$/ }).waitFor();
}

/** Quotes and buys the console's motor cover with the form's own vehicle, and answers on the new policy's screen. */
async function buyAuto(page: Page): Promise<void> {
  await page.getByRole('link', { name: /Quote and buy Auto Cover/ }).click();
  await page.getByRole('button', { name: 'Get a quote' }).click();
  await page.getByRole('heading', { name: /^Your quote: GHS [\d,]+\.\d\d$/ }).waitFor();
  await page.getByRole('button', { name: /^Buy at GHS/ }).click();
  await page.getByRole('heading', { name: /^Policy POL-/ }).waitFor();
}

/** Moves to a console screen as its links do, in the same page (a reload would forget the session, by design). */
const go = (page: Page, hash: string) => page.evaluate((to) => { window.location.hash = to; }, hash);

const badge = (page: Page, value: string) => page.locator(`.console__badge[data-value="${value}"]`).first();

describe('the demo console: journeys', () => {
  it('a client signs up, buys AUTO, pays in the sandbox checkout, sees it ACTIVE with a receipt, files a claim, and signs out leaving no token', async () => {
    const { context, page } = await openConsole();
    try {
      await signUpClient(page);
      await page.getByRole('link', { name: /Quote and buy Auto Cover/ }).click();
      await page.getByRole('button', { name: 'Get a quote' }).click();
      // The quote itemises the motor tariff: the worked lines, then the premium they add up to.
      const quote = page.getByRole('table', { name: /How the premium is worked out/ });
      await quote.waitFor();
      await expect(quote.innerText()).resolves.toMatch(/Third-party basic premium[\s\S]*Own damage at 5% of 85000\.00[\s\S]*No-claim discount at 30%/);
      const price = (await page.getByRole('heading', { name: /^Your quote:/ }).innerText()).replace('Your quote: ', '');
      await page.getByRole('button', { name: `Buy at ${price}` }).click();
      await page.getByRole('heading', { name: /^Policy POL-/ }).waitFor();
      await expect(badge(page, 'PROCESSING').isVisible()).resolves.toBe(true);
      await expect(page.locator('dl').innerText()).resolves.toContain(price);

      // Pay by card: the sandbox checkout opens in a tab of its own; Pay there, and the console sees it.
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      const checkoutLink = page.getByRole('link', { name: /Open the sandbox checkout/ });
      await checkoutLink.waitFor();
      const [checkout] = await Promise.all([context.waitForEvent('page'), checkoutLink.click()]);
      await checkout.waitForLoadState();
      await checkout.getByRole('button', { name: 'Pay' }).click();
      await checkout.getByRole('heading', { name: 'Payment received' }).waitFor();
      await checkout.close();
      await badge(page, 'ACTIVE').waitFor({ timeout: 20_000 });
      await badge(page, 'APPROVED').waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Download the receipt/ }).click()]);
      expect(download.suggestedFilename()).toMatch(/^receipt-RCT-\d+\.pdf$/);
      const receipt = await download.path();
      const { readFileSync } = await import('node:fs');
      expect(readFileSync(receipt).subarray(0, 5).toString()).toBe('%PDF-');

      await page.getByRole('link', { name: 'File a claim' }).click();
      await page.getByLabel('What happened').fill('Rear-ended at the Tetteh Quarshie interchange');
      await page.getByLabel('Where it happened').fill('Tetteh Quarshie interchange');
      await page.getByLabel(/Estimated loss/).fill('2500');
      await page.getByRole('button', { name: 'File the claim' }).click();
      await page.getByRole('heading', { name: /^Claim CLM-/ }).waitFor();
      await expect(badge(page, 'REVIEW').isVisible()).resolves.toBe(true);
      await consoleNav(page).getByRole('link', { name: 'My claims' }).click();
      await expect(page.getByRole('table', { name: /Claims/ }).innerText()).resolves.toMatch(/CLM-\d+/);
      await page.screenshot({ path: path.join(artifacts(), 'console-client-journey.png'), fullPage: true });

      // Signed out: the sign-in screen, and no token in the page's storage or cookies.
      await signOut(page);
      const stored = await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }) + JSON.stringify({ ...window.localStorage }) + document.cookie);
      expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
      expect(stored).not.toMatch(/accessToken|refreshToken/);
      await expect((await context.cookies()).length).toBe(0);
      // Back to a signed-in screen's address: still the sign-in screen, nothing of the client's shown.
      await page.goBack();
      await expect(page.getByRole('heading', { name: /sign-in$/ }).isVisible()).resolves.toBe(true);
      await expect(page.getByText(/POL-\d+/).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('keeps a session past its access token\'s life with the rotating refresh token, once per refresh, and a staff session too', async () => {
    const { context, page } = await openConsole();
    const refreshes: string[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/token/refresh')) refreshes.push(new URL(request.url()).pathname); });
    try {
      await signUpClient(page);
      // In its last minute (after 15 s here) the next call refreshes the token first, and succeeds.
      await page.waitForTimeout((ACCESS_TOKEN_SECONDS - 60 + 2) * 1000);
      await consoleNav(page).getByRole('link', { name: 'My policies' }).click();
      await page.getByText('You have no policy yet').waitFor();
      await consoleNav(page).getByRole('link', { name: 'My claims' }).click();
      await page.getByText('You have filed no claim.').waitFor();
      expect(refreshes).toEqual(['/api/v1/auth/token/refresh']);
      await signOut(page);

      await signInStaff(page, 'officer');
      await page.waitForTimeout((ACCESS_TOKEN_SECONDS - 60 + 2) * 1000);
      await consoleNav(page).getByRole('link', { name: 'Claims' }).click();
      await page.getByRole('heading', { name: 'Open claims' }).waitFor();
      await expect(page.locator('[role=alert]').count()).resolves.toBe(0);
      expect(refreshes).toEqual(['/api/v1/auth/token/refresh', '/api/v1/staff/auth/token/refresh']);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a cash payment the client records is approved by a head of department, by keyboard alone, and the client\'s policy turns ACTIVE', async () => {
    const { context, page } = await openConsole();
    try {
      const email = await signUpClient(page);
      await buyAuto(page);
      await page.getByRole('radio', { name: /In cash at a branch/ }).check();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await badge(page, 'PENDING_APPROVAL').waitFor();
      const transactionNo = (await page.locator('.console__payments li').first().innerText()).match(/TRX-\d+/)![0];
      const policyHash = new URL(page.url()).hash;
      await signOut(page);

      await signInStaff(page, 'head.sales');
      const row = page.locator('tr', { hasText: transactionNo });
      await row.waitFor();
      // Keyboard only: Tab to the approval, Enter, type the note, Enter.
      const approve = row.getByRole('button', { name: `Approve ${transactionNo}` });
      let reached = false;
      for (let presses = 0; presses < 80 && !reached; presses += 1) {
        await page.keyboard.press('Tab');
        reached = await approve.evaluate((button) => button === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      await expect(row.getByLabel(/Notes/).evaluate((input) => input === document.activeElement)).resolves.toBe(true);
      await page.keyboard.type('Cash counted at the Osu branch');
      await page.keyboard.press('Enter');
      await row.waitFor({ state: 'detached' });
      await signOut(page);

      await signInClient(page, email);
      await go(page, policyHash);
      await badge(page, 'ACTIVE').waitFor();
      await badge(page, 'APPROVED').waitFor();
      await expect(page.getByRole('button', { name: /Download the receipt/ }).isVisible()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('an agent\'s console offers no approval; a forced one shows the API\'s refusal', async () => {
    // The agent's own client, its policy and the cash the agent recorded for it.
    const agent = await staffToken('agent');
    const client = await call('POST', '/staff/clients', agent, { type: 'INDIVIDUAL', firstName: 'Esi', lastName: 'Boateng', email: uniqueEmail('own'), country: 'GH', groups: [] });
    const policy = await call('POST', `/staff/clients/${client.id}/policies`, agent, homeBody(await homeProductId(agent, 'staff')));
    const cash = await call('POST', '/staff/transactions', agent, { invoiceId: policy.invoice.id, paymentMethod: 'CASH' });

    const { context, page } = await openConsole();
    try {
      await signInStaff(page, 'agent');
      const row = page.locator('tr', { hasText: cash.transactionNo });
      await row.waitFor();
      await expect(row.getByRole('button').count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: /Approve|Reject/ }).count()).resolves.toBe(0);
      // What the table does not grant an agent is not in its navigation either.
      await expect(consoleNav(page).getByRole('link', { name: 'Organisation' }).count()).resolves.toBe(0);

      await page.getByLabel(/Show actions my position may not take/).check();
      const forced = row.getByRole('button', { name: `Approve ${cash.transactionNo} (not permitted)` });
      await forced.click();
      await row.getByRole('button', { name: `Approve ${cash.transactionNo} (not permitted)` }).click();
      await expect(row.getByRole('alert').innerText()).resolves.toMatch(/^403 NOT_PERMITTED: .*may not approve a payment/);
      await expect(call('GET', `/staff/transactions/${cash.id}`, agent)).resolves.toMatchObject({ status: 'PENDING_APPROVAL' });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a claim is reviewed, moved to settlement and settled through the console, which closes it', async () => {
    const { claim } = await clientWithClaim();
    const { context, page } = await openConsole();
    try {
      await signInStaff(page, 'head.claims');
      await consoleNav(page).getByRole('link', { name: 'Claims' }).click();
      await page.getByRole('link', { name: claim.claimNo }).click();
      await page.getByRole('heading', { name: `Claim ${claim.claimNo}` }).waitFor();
      await page.getByLabel(/Settle for/).fill('2000');
      await page.getByLabel('Review notes').fill('Plumber\'s invoice checked');
      await page.getByRole('button', { name: 'Record the review' }).click();
      await page.getByText(/reviewed by .*adjusted to GHS 2,000\.00/).waitFor();

      await page.getByRole('button', { name: 'Move to settlement' }).click();
      await page.getByLabel('Why').fill('A covered peril');
      await page.getByRole('button', { name: 'Move to settlement' }).click();
      await page.getByRole('form', { name: 'Settle the claim' }).waitFor();
      await expect(badge(page, 'SETTLEMENT').isVisible()).resolves.toBe(true);

      // More than the review allows is refused, with the API's reason.
      await page.getByLabel('Amount paid').fill('2400');
      await page.getByLabel('Paid to').fill('Kofi Mensah');
      await page.getByLabel('Payment reference').fill('GCB transfer 0042');
      await page.getByRole('button', { name: 'Record the settlement' }).click();
      await expect(page.getByRole('form', { name: 'Settle the claim' }).getByRole('alert').innerText()).resolves.toMatch(/^4\d\d [A-Z_]+: /);

      await page.getByLabel('Amount paid').fill('2000');
      await page.getByRole('button', { name: 'Record the settlement' }).click();
      await badge(page, 'SETTLED').waitFor();
      await expect(badge(page, 'CLOSED').isVisible()).resolves.toBe(true);
      await expect(page.locator('dl').innerText()).resolves.toMatch(/GHS 2,000\.00 to Kofi Mensah/);
      await expect(page.getByRole('button', { name: /Close the claim|Record/ }).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('the demo console: the book and the organisation', () => {
  it('an executive manager opens a client account, adds a branch, a department and a staff member, moves a policy, approves a closure, and sees a product refused as the API says', async () => {
    // A client's policy awaiting payment (for the move), and another's active one with a closure requested.
    const email = uniqueEmail('book');
    const { accessToken: token } = await call('POST', '/auth/signup', undefined, { type: 'INDIVIDUAL', firstName: 'Yaa', lastName: 'Asantewaa', email, password: PASSWORD, country: 'GH', groups: [] });
    const unpaid = await call('POST', '/client/policies/home', token, homeBody(await homeProductId(token)));
    const { email: closingEmail, policyId: closingPolicyId } = await clientWithClaim();
    const closingToken = (await call('POST', '/auth/login', undefined, { username: closingEmail, password: PASSWORD })).accessToken;
    const closure = await call('POST', '/client/policies/closure', closingToken, { policyId: closingPolicyId, reason: 'Sold the flat' });
    const suffix = `${Date.now() % 1_000_000}`;

    const { context, page } = await openConsole();
    try {
      await signInStaff(page, 'exec');

      await consoleNav(page).getByRole('link', { name: 'Clients' }).click();
      await page.getByRole('link', { name: 'Open a client account' }).click();
      await page.getByLabel('First name').fill('Abena');
      await page.getByLabel('Last name').fill(`Counter${suffix}`);
      const clientEmail = uniqueEmail('walkin');
      await page.getByLabel('E-mail').fill(clientEmail);
      await page.getByRole('button', { name: 'Open the account' }).click();
      await page.getByRole('heading', { name: `Abena Counter${suffix}` }).waitFor();
      await expect(page.locator('dl').innerText()).resolves.toContain(clientEmail);

      await consoleNav(page).getByRole('link', { name: 'Organisation' }).click();
      await page.getByRole('button', { name: 'Create a branch' }).click();
      await page.getByLabel('Branch name').fill(`Kumasi ${suffix}`);
      await page.getByLabel('Address').fill('Adum, Kumasi');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('cell', { name: `Kumasi ${suffix}` }).waitFor();
      await page.getByRole('button', { name: 'Create a department' }).click();
      await page.getByLabel('Department name').fill(`Motor ${suffix}`);
      await page.getByRole('combobox', { name: 'Branch', exact: true }).selectOption({ label: `Kumasi ${suffix}` });
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('cell', { name: `Motor ${suffix}` }).waitFor();
      await page.getByRole('button', { name: 'Add a staff member' }).click();
      await page.getByLabel('First name').fill('Kwame');
      await page.getByLabel('Last name').fill(`Officer${suffix}`);
      await page.getByLabel('E-mail').fill(uniqueEmail('officer'));
      await page.getByRole('combobox', { name: 'Department', exact: true }).selectOption({ label: `Motor ${suffix}` });
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('cell', { name: `Kwame Officer${suffix}` }).waitFor();

      // The sandbox company is a broker: creating a product is refused, and the console says why.
      await consoleNav(page).getByRole('link', { name: 'Products' }).click();
      await page.getByRole('button', { name: 'Create a product' }).click();
      await page.getByLabel('Name').fill('Tro-tro cover');
      await page.getByLabel('Code').fill(`TROTRO-${suffix}`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await expect(page.getByRole('form', { name: 'The new product' }).getByRole('alert').innerText()).resolves.toMatch(/^403 NOT_AN_INSURER: /);

      await consoleNav(page).getByRole('link', { name: 'Policies' }).click();
      await page.getByLabel('Policy number').fill(unpaid.policyNo);
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('link', { name: unpaid.policyNo }).click();
      await page.getByRole('heading', { name: `Policy ${unpaid.policyNo}` }).waitFor();
      await page.getByLabel('To', { exact: true }).selectOption('UNDER_WRITER');
      await page.getByRole('button', { name: 'Move to UNDER_WRITER' }).click();
      await page.getByLabel('Why').fill('Sum insured above the referral limit');
      await page.getByRole('button', { name: 'Move to UNDER_WRITER' }).click();
      const move = page.locator('.console__history li', { hasText: 'Sum insured above the referral limit' });
      await move.waitFor();
      await expect(move.innerText()).resolves.toMatch(/PROCESSING → UNDER_WRITER by .+: .?Sum insured above the referral limit/);
      await expect(call('GET', `/client/policies/${unpaid.id}`, token)).resolves.toMatchObject({ state: 'UNDER_WRITER' });

      await consoleNav(page).getByRole('link', { name: 'Closures' }).click();
      const row = page.locator('tr', { hasText: closure.policy.policyNo });
      await row.getByRole('button', { name: /^Approve the closure/ }).click();
      await row.getByRole('button', { name: /^Approve the closure/ }).click();
      await row.waitFor({ state: 'detached' });
      await expect(call('GET', `/client/policies/${closingPolicyId}`, closingToken)).resolves.toMatchObject({ state: 'CANCELLED' });
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('the demo console: every screen passes axe-core', () => {
  const report: Record<string, Violation[]> = {};
  let claimant: Awaited<ReturnType<typeof clientWithClaim>>;

  beforeAll(async () => {
    claimant = await clientWithClaim();
    // A payment awaiting approval, so the staff queue has a row with its decisions.
    const token = (await call('POST', '/auth/login', undefined, { username: claimant.email, password: PASSWORD })).accessToken;
    const policy = await call('POST', '/client/policies/home', token, homeBody(await homeProductId(token)));
    await call('POST', '/client/transactions', token, { invoiceId: policy.invoice.id, paymentMethod: 'CASH' });
  }, 60_000);

  afterAll(() => {
    // Every violation found (minor and moderate too), for whoever works on the console next.
    console.log(JSON.stringify(report, null, 1));
  });

  for (const mode of ['light', 'dark'] as const) {
    // 1280 and 390 px are the issue's; 996 px is the seed's breakpoint, where the navbar folds away.
    for (const width of [1280, 996, 390]) {
      it(`${mode}, ${width} px: the sign-in screens, the client's screens and the staff's screens`, async () => {
        const { context, page } = await openConsole({ mode, width });
        const found: string[] = [];
        const check = async (screen: string) => {
          await page.locator('[role=status]:has-text("Loading")').first().waitFor({ state: 'detached' }).catch(() => undefined);
          const violations = await axeViolations(page);
          report[`${mode} ${width} ${screen}`] = violations;
          for (const violation of blocking(violations)) found.push(`${screen}: ${violation.id} (${violation.impact}) ${violation.help}\n  ${violation.targets.join('\n  ')}`);
        };
        try {
          await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(mode);
          await check('client sign-in');
          await page.getByRole('button', { name: 'Client sign-up' }).click();
          await check('client sign-up');
          await page.getByRole('button', { name: 'Staff sign-in' }).click();
          await check('staff sign-in');

          await signInClient(page, claimant.email);
          await page.getByRole('table', { name: /Products/ }).waitFor();
          await check('products');
          await page.getByRole('link', { name: /Quote and buy Auto Cover/ }).click();
          await page.getByRole('button', { name: 'Get a quote' }).click();
          await page.getByRole('heading', { name: /^Your quote/ }).waitFor();
          await check('motor quote');
          await consoleNav(page).getByRole('link', { name: 'My policies' }).click();
          await page.getByRole('table', { name: /Policies/ }).waitFor();
          await check('policies');
          await go(page, `#/policies/${claimant.policyId}`);
          await page.getByRole('button', { name: /Download the receipt/ }).waitFor();
          await check('policy with its payments');
          await page.getByRole('link', { name: 'File a claim' }).click();
          await page.getByRole('form', { name: 'The claim' }).waitFor();
          await check('claim form');
          await go(page, `#/claims/${claimant.claim.id}`);
          await page.getByRole('heading', { name: `Claim ${claimant.claim.claimNo}` }).waitFor();
          await check('claim');
          await signOut(page);

          await signInStaff(page, 'exec');
          await page.getByRole('table', { name: /Payments awaiting approval/ }).waitFor();
          await page.getByRole('button', { name: /^Reject TRX-/ }).first().click();
          await check('payments, a rejection open');
          for (const [nav, ready] of [
            ['Claims', 'table'], ['Closures', 'h2'], ['Policies', 'table'], ['Clients', 'table'], ['Products', 'table'], ['Organisation', 'table'],
          ] as const) {
            await consoleNav(page).getByRole('link', { name: nav }).click();
            await page.locator(`.console__screen ${ready}`).first().waitFor();
            await check(nav.toLowerCase());
          }
          await go(page, `#/claims/${claimant.claim.id}`);
          await page.getByRole('form', { name: 'Review the claim' }).waitFor();
          await check('staff claim');
          await go(page, `#/policies/${claimant.policyId}`);
          await page.getByRole('heading', { name: 'State history' }).waitFor();
          await check('staff policy');
          await go(page, `#/clients/new`);
          await page.getByRole('form', { name: 'The new client' }).waitFor();
          await check('new client');
          await page.screenshot({ path: path.join(artifacts(), `console-${mode}-${width}.png`), fullPage: true });

          // The check can fail: an input without a label is reported, as a critical violation.
          await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<input id="unlabelled">'));
          expect(blocking(await axeViolations(page, 'main')).map((v) => v.id)).toContain('label');

          expect(found).toEqual([]);
        } finally {
          await context.close();
        }
      }, 180_000);
    }
  }
});

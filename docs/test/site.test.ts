/**
 * The documentation site as a developer uses it: the built site (`npm run docs:build`) served over
 * HTTP, the API running beside it, Debian's Chromium driving both. Run with `npm run test:docs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifacts, freePort, httpGet, launchBrowser, repoDir, serveSite, startApi, type Running } from './support.js';

let site: Running;
let api: Running & { specUrl: string; output: () => string };
let browser: Browser;
let context: BrowserContext;
/** Requests the current test's pages made to a host other than the site's and the API's. */
const external: string[] = [];

beforeAll(async () => {
  site = await serveSite();
  api = await startApi(site.url);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await site?.close();
});

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.on('request', (request) => {
    const { protocol, hostname } = new URL(request.url());
    const local = hostname === '127.0.0.1' || hostname === 'localhost';
    if ((protocol === 'http:' || protocol === 'https:') && !local) external.push(request.url());
  });
});

afterEach(async () => {
  await context?.close();
  // Nothing comes from a CDN or any other host: the site is static and self-contained.
  const seen = external.splice(0);
  expect(seen).toEqual([]);
});

async function open(pathname: string, page?: Page) {
  const p = page ?? (await context.newPage());
  const response = await p.goto(`${site.url}${pathname}`, { waitUntil: 'load' });
  return { page: p, status: response?.status() };
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(artifacts(), `${name}.png`), fullPage: false });

// The contract the site was generated from: its operations with a page, and what each is called.
const contract = JSON.parse(readFileSync(path.join(repoDir, 'generated/openapi.json'), 'utf8'));
const operations: { operationId: string; slug: string; summary: string; method: string; path: string }[] = [];
for (const [route, item] of Object.entries<Record<string, any>>(contract.paths)) {
  for (const [method, op] of Object.entries<any>(item)) {
    if (op?.['x-doc-slug']) operations.push({ operationId: op.operationId, slug: op['x-doc-slug'], summary: op.summary, method, path: route });
  }
}

// The version menu's label: the docs' own version and the API version they describe, the contract's.
const versionLabel = `2.1.0 · API ${contract.info.version}`;

// The webhooks (what the API sends, one per event type): each has a page too, at its x-doc-slug.
const webhooks = Object.entries<Record<string, any>>(contract.webhooks ?? {}).map(([type, item]) => ({ type, slug: item.post['x-doc-slug'] as string }));

describe('every page of the product spec that exists now answers and shows its heading', () => {
  const pages: [string, RegExp][] = [
    ['/', /^Coverline Developers$/],
    ['/api-reference', /^API Reference$/],
    ['/sandbox-mailbox', /^Sandbox mailbox$/],
    ['/markdown-page', /^Demo$/],
    ['/demo', /^Demo console$/],
    ['/faq/', /^Frequently asked questions$/],
    ['/blog', /^Welcome to Coverline Developers 2\.1\.0$/],
    ['/blog/archive', /^Archive$/],
    ['/blog/tags', /^Tags$/],
    ['/blog/tags/docusaurus', /tagged with "Docusaurus"/],
    ['/blog/tags/facebook', /tagged with "Facebook"/],
    ['/blog/tags/hello', /tagged with "Hello"/],
    ['/blog/tags/hola', /tagged with "Hola"/],
    ['/blog/first-blog-post', /^Your first hour with the Coverline sandbox$/],
    ['/blog/long-blog-post', /^One contract, four products/],
    ['/blog/mdx-blog-post', /^Trying calls from the docs$/],
    ['/blog/welcome', /^Welcome to Coverline Developers 2\.1\.0$/],
    ['/docs', /^Introduction$/],
    ['/docs/quick-start', /^Quick start$/],
    ['/docs/changelog', /^Changelog$/],
    ['/docs/authentication', /^Authentication$/],
    ['/docs/errors', /^Errors$/],
    ['/docs/operating', /^Operating Coverline$/],
    // Until createPolicy is in the contract a hand-written page holds this address; then its
    // generated page does (and is checked with the operation pages below).
    ...(operations.some((op) => op.slug === 'category/create-policy') ? [] : [['/docs/category/create-policy', /^Create policy$/] as [string, RegExp]]),
    ['/docs/category/products', /^Products$/],
  ];

  it.each(pages)('%s', async (pathname, heading) => {
    const { page, status } = await open(pathname);
    expect(status).toBe(200);
    const first = page.locator('main h1, main h2, article h1, header h1').first();
    await first.waitFor();
    expect((await first.innerText()).trim()).toMatch(heading);
  });

  it.each(operations.map((op) => [`/docs/${op.slug}`, op.summary, op.operationId] as const))(
    '%s (the page of %s)',
    async (pathname, summary) => {
      const { page, status } = await open(pathname);
      expect(status).toBe(200);
      await expect(page.locator('h1.openapi__heading').innerText()).resolves.toBe(summary);
    },
  );

  it('every event type has its webhook page (served, naming its type; one is opened in a browser below)', async () => {
    expect(webhooks.length).toBeGreaterThan(30);
    for (const { type, slug } of webhooks) {
      const { status, body } = await httpGet(`${site.url}/docs/${slug}`);
      expect({ type, status, named: body.includes(`Event type <code>${type}</code>`) }).toEqual({ type, status: 200, named: true });
    }
  });

  it('an unknown path answers 404 with the not-found page', async () => {
    const { page, status } = await open('/docs/no-such-page');
    expect(status).toBe(404);
    await expect(page.locator('main h1').innerText()).resolves.toMatch(/Page Not Found/i);
  });
});

describe('a generated operation page', () => {
  it('a typed policy or quote page\'s request sample names its own policy type, so Send API Request sends a body it accepts', async () => {
    for (const [pathname, type] of [['/docs/policy-quotes/Get-quote/goods_in_transit', 'GOODS_IN_TRANSIT'], ['/docs/Policies/Create-policy/home', 'HOME']]) {
      const { page } = await open(pathname);
      const samples = page.locator('pre', { hasText: '"policyType"' });
      await samples.first().waitFor({ state: 'attached' });
      // The first is the request body's sample (the response samples follow it, some in closed tabs).
      expect((await samples.allTextContents())[0]).toMatch(new RegExp(`"policyType":\\s*"${type}"`));
      await page.close();
    }
  });

  it('a staff decision\'s request sample marks its free text as an example to edit, so Send API Request records no invented note', async () => {
    const reject = operations.find((op) => op.operationId === 'rejectTransaction')!;
    const { page } = await open(`/docs/${reject.slug}`);
    const samples = page.locator('pre', { hasText: '"reason"' });
    await samples.first().waitFor({ state: 'attached' });
    expect((await samples.allTextContents())[0]).toContain('"reason": "Example, edit before sending: ');
  });

  it('opens the code samples on curl', async () => {
    const { page } = await open('/docs/Authorization/Login');
    const selected = page.locator('li.openapi-tabs__code-item[aria-selected="true"]').first();
    await selected.waitFor();
    await expect(selected.getAttribute('class')).resolves.toContain('openapi-tabs__code-item--curl');
    await expect(page.locator('li.openapi-tabs__code-item').first().textContent()).resolves.toBe('curl');
  });

  it('shows the method, the path, the request and response schemas, an example and the Send API Request panel', async () => {
    const { page } = await open('/docs/Authorization/Login');
    const main = page.locator('main');
    await expect(main.innerText()).resolves.toContain('/auth/login');
    await expect(page.locator('.openapi__method-endpoint').first().innerText()).resolves.toMatch(/post/i);
    await expect(main.innerText()).resolves.toContain('Operation ID: login');
    // Request body schema: the login fields.
    const property = (name: string) => page.locator('.openapi-schema__property', { hasText: new RegExp(`^${name}$`) }).first();
    await property('username').waitFor();
    await property('password').waitFor();
    // Responses: each status code of the contract, and the 200's schema down to the access token.
    for (const code of Object.keys(contract.paths['/auth/login'].post.responses)) {
      await expect(page.locator('.openapi-tabs__response-code-item', { hasText: code }).count()).resolves.toBeGreaterThan(0);
    }
    await page.locator('.openapi-tabs__response-code-item', { hasText: '200' }).first().click();
    await page.locator('summary', { has: property('data') }).first().click();
    await property('accessToken').waitFor();
    // The contract's example of a signed-in answer.
    await page.getByRole('tab', { name: 'signed-in' }).first().click();
    await expect(main.innerText()).resolves.toContain('"tokenType": "Bearer"');
    // The panel that calls the sandbox, pointed at the contract's sandbox server.
    await expect(page.getByRole('button', { name: /Send API Request/i }).isVisible()).resolves.toBe(true);
    await expect(page.locator('body').innerText()).resolves.toContain('http://localhost:3000/api/v1');
    await shot(page, 'operation-login');
  });

  it('lists the error codes the operation can answer, each linking to its entry on the Errors page', async () => {
    const getPolicy = operations.find((op) => op.operationId === 'getPolicy')!;
    const { page } = await open(`/docs/${getPolicy.slug}`);
    const listed: Record<string, string[]> = contract.paths[getPolicy.path][getPolicy.method]['x-error-codes'];
    const links = page.locator('main a[href^="/docs/errors#"]');
    await links.first().waitFor();
    await expect(links.allInnerTexts()).resolves.toEqual(Object.values(listed).flat());
    await page.locator('main a[href="/docs/errors#NOT_FOUND"]').first().click();
    await page.waitForURL(/\/docs\/errors#NOT_FOUND$/);
    const entry = page.locator('[id="NOT_FOUND"]');
    await expect(entry.innerText()).resolves.toContain('NOT_FOUND');
    await expect(entry.isVisible()).resolves.toBe(true);
    await expect(page.locator('main').innerText()).resolves.toContain('What to do:');
    await shot(page, 'errors-not-found');
  });

  it('places the page in the sidebar under its x-doc-slug folder, and links the Authorization box to the guide', async () => {
    const { page } = await open('/docs/Policies/vehicle/all-vehicles');
    const menu = page.locator('.theme-doc-sidebar-menu');
    const listVehicles = operations.find((op) => op.operationId === 'listVehicles')!;
    await expect(menu.locator('a[aria-current="page"]').innerText()).resolves.toBe(listVehicles.summary);
    await expect(menu.locator('.menu__link--sublist.menu__link--active').allInnerTexts()).resolves.toEqual(['Policies', 'Vehicles']);
    await expect(page.locator('.openapi-security__details a').first().getAttribute('href')).resolves.toMatch(/^\/docs\/authentication/);
  });
});

describe('a webhook page (an event type of the contract\'s webhooks)', () => {
  it('invoice.paid shows its delivery headers and its payload down to the Invoice\'s fields, under Webhooks in the sidebar', async () => {
    const { page, status } = await open('/docs/webhooks/invoice/paid');
    expect(status).toBe(200);
    await expect(page.locator('h1.openapi__heading').innerText()).resolves.toBe('invoice.paid');
    const main = page.locator('main');
    await expect(main.innerText()).resolves.toContain('Event type invoice.paid');
    await expect(page.locator('.openapi__method-endpoint').first().innerText()).resolves.toMatch(/webhook/i);
    const property = (name: string, within: Page | ReturnType<Page['locator']> = page) =>
      within.locator('.openapi-schema__property', { hasText: new RegExp(`^${name}$`) }).first();
    // The Standard Webhooks headers.
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) await property(header).waitFor();
    // The envelope, then data.object: the invoice's own fields.
    for (const name of ['id', 'type', 'createdAt', 'apiVersion', 'actor', 'data']) await property(name).waitFor();
    const data = page.locator('details', { has: page.locator(':scope > summary', { has: property('data') }) }).first();
    await data.locator(':scope > summary').click();
    await property('previous', data).waitFor();
    const object = data.locator('details', { has: page.locator(':scope > summary', { has: property('object') }) }).first();
    await object.locator(':scope > summary').click();
    for (const field of ['invoiceNo', 'amountUnpaid', 'isClosed', 'transactions']) await property(field, object).waitFor();
    // Its answers: 2xx acknowledges, anything else is retried; no request panel (the API sends this).
    for (const code of ['2XX', 'default']) await expect(page.locator('.openapi-tabs__response-code-item', { hasText: code }).count()).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: /Send API Request/i }).count()).resolves.toBe(0);
    const menu = page.locator('.theme-doc-sidebar-menu');
    await expect(menu.locator('a[aria-current="page"]').innerText()).resolves.toBe('invoice.paid');
    await expect(menu.locator('.menu__link--sublist.menu__link--active').allInnerTexts()).resolves.toEqual(['Webhooks', 'Invoice events']);
    await shot(page, 'webhook-invoice-paid');
  });
});

describe('Send API Request against the API the reader names', () => {
  /** Opens the Base URL box of the page's request panel and sets its baseUrl variable. */
  async function setBaseUrl(page: Page, baseUrl: string) {
    const box = page.locator('details.openapi-explorer__details-container', { has: page.locator('summary', { hasText: 'Base URL' }) });
    // The theme shows its Edit and Hide buttons while the pointer is over the box.
    await box.locator('.openapi-explorer__floating-btn').hover();
    await box.getByRole('button', { name: 'Edit' }).click();
    await box.locator('select').selectOption({ index: 0 }); // the first server: `{baseUrl}`, the reader's
    await box.locator('input.openapi-explorer__form-item-input').fill(baseUrl);
    await box.locator('.openapi-explorer__floating-btn').hover();
    await box.getByRole('button', { name: 'Hide' }).click();
    await expect(box.locator('.openapi-explorer__server-url').innerText()).resolves.toBe(baseUrl);
  }

  it('calls the API at the base URL the reader sets (not localhost:3000), and keeps it on the next page of the tab', async () => {
    expect(new URL(api.url).port).not.toBe('3000');
    const { page } = await open('/docs/system/health');
    await setBaseUrl(page, api.url);
    const call = page.waitForResponse((r) => r.url() === `${api.url}/health`);
    await page.getByRole('button', { name: /Send API Request/i }).click();
    expect((await call).status()).toBe(200);
    const panel = page.locator('.openapi-explorer__response-container');
    await panel.locator('.openapi-tabs__code-item, [role="tab"]', { hasText: '200' }).first().waitFor();
    await expect(panel.innerText()).resolves.toMatch(/"status":\s*"ok"/);
    await expect(panel.locator('[role="alert"]').count()).resolves.toBe(0);
    await shot(page, 'send-request-reader-base-url');
    // The theme keeps the choice for the tab (sessionStorage): the next operation page calls there too.
    await open('/docs/system/openapi-document', page);
    await expect(page.locator('.openapi-explorer__server-url').innerText()).resolves.toBe(api.url);
    const next = page.waitForResponse((r) => r.url() === `${api.url}/openapi.json`);
    await page.getByRole('button', { name: /Send API Request/i }).click();
    expect((await next).status()).toBe(200);
  });

  it('shows a visible error in the response panel when nothing answers at the base URL', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}/api/v1`;
    const { page } = await open('/docs/system/health');
    await setBaseUrl(page, unreachable);
    await page.getByRole('button', { name: /Send API Request/i }).click();
    const alert = page.locator('.openapi-explorer__response-container [role="alert"]');
    await alert.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await alert.innerText();
    expect(text).toContain(`The request failed: no answer from ${unreachable}`);
    expect(text).toMatch(/Unable to reach the server/);
    expect(text).toContain('CORS_ORIGINS');
    // Not the theme's "Click the Send API Request button" placeholder, which it showed alone before.
    await expect(page.locator('.openapi-explorer__response-placeholder-message').count()).resolves.toBe(0);
    await shot(page, 'send-request-unreachable');
    // Clear empties the panel back to its placeholder.
    await page.locator('.openapi-explorer__response-clear-btn').click();
    await expect(alert.count()).resolves.toBe(0);
    await page.locator('.openapi-explorer__response-placeholder-message').waitFor();
  });
});

describe('/api-reference', () => {
  it('loads the live specification from the running API (CORS) and lists every operation', async () => {
    const served = JSON.parse((await httpGet(api.specUrl)).body);
    // Every operation and every webhook (one per event type): Swagger UI renders both as blocks.
    let count = 0;
    for (const item of [...Object.values<Record<string, unknown>>(served.paths), ...Object.values<Record<string, unknown>>(served.webhooks ?? {})]) {
      count += Object.keys(item).filter((m) => ['get', 'put', 'post', 'delete', 'patch'].includes(m)).length;
    }
    expect(Object.keys(served.webhooks ?? {}).length).toBeGreaterThan(30);
    const page = await context.newPage();
    const specRequest = page.waitForResponse((r) => r.url() === api.specUrl);
    await open(`/api-reference?url=${encodeURIComponent(api.specUrl)}`, page);
    const response = await specRequest;
    expect(response.status()).toBe(200);
    expect(response.headers()['access-control-allow-origin']).toBe(site.url);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    // Swagger UI virtualises a long list (only what is near the viewport is in the DOM): scroll
    // through it, collecting each operation's block, until every operation has been rendered.
    const rendered = new Set<string>();
    const paths = new Set<string>();
    for (let step = 0; step < 1000 && rendered.size < count; step += 1) {
      for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => block.id))) rendered.add(id);
      for (const text of await page.locator('.opblock-summary-path').allInnerTexts()) paths.add(text.replace(/\u200b/g, '').trim());
      await page.mouse.wheel(0, 500);
      await page.waitForTimeout(30);
    }
    expect(rendered.size).toBe(count);
    expect(paths).toContain('/auth/login');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.locator('.swagger-ui .info .title').innerText()).resolves.toContain(served.info.title);
    await expect(page.locator('.api-reference__source a').getAttribute('href')).resolves.toBe(api.specUrl);
    await shot(page, 'api-reference');
  });

  it('loads the API whose base URL the reader types, and "Try it out" calls that API (first in Servers)', async () => {
    const builtWith = process.env.API_SPEC_URL || 'http://localhost:3000/api/v1/openapi.json';
    const page = await context.newPage();
    await page.route(builtWith, (route) => route.abort()); // whatever listens there is not ours
    await open('/api-reference', page);
    const field = page.getByLabel('API base URL');
    await expect(field.inputValue()).resolves.toBe(builtWith.replace(/\/openapi\.json$/, ''));
    await field.fill(`${api.url}/`);
    const specRequest = page.waitForResponse((r) => r.url() === api.specUrl);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    expect((await specRequest).status()).toBe(200);
    expect(new URL(page.url()).searchParams.get('url')).toBe(api.specUrl);
    await expect(field.inputValue()).resolves.toBe(api.url);
    // The API the contract came from is the first server and the one selected; the contract's follow.
    const servers = page.locator('.servers select');
    await servers.waitFor();
    await expect(servers.locator('option').allInnerTexts()).resolves.toEqual(
      [api.url, ...contract.servers.map((server: { url: string }) => server.url)].map((url) => expect.stringContaining(url)),
    );
    await expect(servers.inputValue()).resolves.toBe(api.url);
    // Try it out on GET /health (scrolling until swagger-ui has rendered its block).
    const operation = page.locator('#operations-System-getHealth');
    for (let step = 0; step < 400 && (await operation.count()) === 0; step += 1) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(30);
    }
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: /Try it out/ }).click();
    const call = page.waitForResponse((r) => r.url() === `${api.url}/health`);
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await call).status()).toBe(200);
    await expect(operation.locator('.live-responses-table tr.response .response-col_status').first().innerText()).resolves.toContain('200');
    await shot(page, 'api-reference-reader-base-url');
    // A call that gets no answer (here the contract's sandbox server, answered for) says so visibly.
    const sandbox = contract.servers[0].url as string;
    await page.route(`${sandbox}/health`, (route) => route.abort());
    await servers.selectOption(sandbox);
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.getByText(/Failed to fetch/).first().waitFor();
  });

  it('defaults to the URL the site was built with (API_SPEC_URL, else the API\'s default address)', async () => {
    const builtWith = process.env.API_SPEC_URL || 'http://localhost:3000/api/v1/openapi.json';
    const page = await context.newPage();
    // Whatever listens there on this machine is not ours to call: answer for it.
    const asked: string[] = [];
    await page.route(builtWith, (route) => { asked.push(route.request().url()); return route.abort(); });
    await open('/api-reference', page);
    await expect(page.locator('.api-reference__source a').getAttribute('href')).resolves.toBe(builtWith);
    await page.getByText(/Failed to load API definition/i).first().waitFor();
    expect(asked).toEqual([builtWith]);
  });
});

describe('navigation, colour mode, versions and search', () => {
  it('the navbar has its items, the footer is dark with a copyright line, and a skip link exists', async () => {
    const { page } = await open('/docs');
    const navbar = page.locator('nav.navbar');
    for (const label of ['Documentation', 'Demo', 'API Reference', 'FAQs', versionLabel, 'English']) {
      await expect(navbar.getByText(label, { exact: true }).first().isVisible()).resolves.toBe(true);
    }
    await expect(navbar.locator('a[aria-label="Source repository"]').count()).resolves.toBe(1);
    // "Demo" opens the console (the seed's placeholder page still exists, and points to it).
    await expect(navbar.getByRole('link', { name: 'Demo', exact: true }).first().getAttribute('href')).resolves.toBe('/demo');
    await expect(page.locator('footer.footer--dark .footer__copyright').innerText()).resolves.toMatch(/Copyright © \d{4} Coverline/);
    await expect(page.locator('a[href="#__docusaurus_skipToContent_fallback"]').innerText()).resolves.toMatch(/Skip to main content/i);
    await expect(page.locator('.theme-announcement-bar').isVisible()).resolves.toBe(true);
  });

  it('shows one API version, the contract\'s, in the navbar, the intro, the FAQ and the running API\'s health', async () => {
    const version = contract.info.version;
    const health = JSON.parse((await httpGet(api.specUrl.replace(/\/openapi\.json$/, '/health'))).body);
    expect(health.version).toBe(version);
    const { page } = await open('/docs');
    await expect(page.locator('main').innerText()).resolves.toContain(`This site documents version ${version} of the API`);
    await expect(page.locator('nav.navbar').getByText(versionLabel, { exact: true }).first().isVisible()).resolves.toBe(true);
    await open('/faq/', page);
    await expect(page.locator('main').innerText()).resolves.toContain(`describing version ${version} of the API`);
  });

  it('the Quick start is first in the sidebar and linked from the intro; the Changelog, in the navbar\'s version menu, lists every recorded release', async () => {
    const { page } = await open('/docs');
    // The docs sidebar itself (Docusaurus's theme-doc-sidebar-menu), its first link once the page has hydrated.
    const sidebarFirst = page.locator('.theme-doc-sidebar-menu a.menu__link').first();
    await sidebarFirst.waitFor();
    await expect(sidebarFirst.innerText()).resolves.toBe('Quick start');
    await page.locator('main a[href="/docs/quick-start"]').first().click();
    await page.waitForURL(/\/docs\/quick-start$/);
    await expect(page.locator('main h1').innerText()).resolves.toBe('Quick start');
    // The Changelog is in the navbar's version menu.
    const dropdown = page.locator('.navbar__item.dropdown', { has: page.locator('a.navbar__link', { hasText: versionLabel }) });
    await dropdown.hover();
    const changelog = dropdown.locator('.dropdown__menu a.dropdown__link', { hasText: 'Changelog' });
    await changelog.waitFor({ state: 'visible' });
    await changelog.click();
    await page.waitForURL(/\/docs\/changelog$/);
    // Each heading ends with its anchor link's zero-width space.
    const headings = (await page.locator('main h2').allInnerTexts()).map((text) => text.replace(/\u200b/g, '').trim());
    const released = readFileSync(path.join(repoDir, 'spec/releases/releases.yaml'), 'utf8').match(/version: '[^']+'/g)!.map((v) => v.slice(10, -1));
    expect(released.length).toBeGreaterThan(2);
    for (const version of released) expect(headings).toContain(version);
  });

  it('the Operating page shows every configuration variable the server declares, and its alerting rules download', async () => {
    const { page } = await open('/docs/operating');
    const main = await page.locator('main').innerText();
    const declared = [...readFileSync(path.join(repoDir, 'server/platform/config-variables.ts'), 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+): \{ area:/gm)].map((m) => m[1]);
    expect(declared).toEqual(expect.arrayContaining(['METRICS_TOKEN', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'SHUTDOWN_TIMEOUT_MS', 'DATABASE_URL']));
    for (const name of declared) expect({ name, shown: main.includes(name) }).toEqual({ name, shown: true });
    const href = await page.locator('main a', { hasText: 'coverline-alerts.yml' }).first().getAttribute('href');
    const rules = await httpGet(new URL(href!, site.url).toString());
    expect(rules.status).toBe(200);
    expect(rules.body).toContain('alert: CoverlineHighErrorRate');
  });

  it('collapses the navbar into the mobile sidebar at 996 px, not at 1200 px', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1200, height: 900 });
    await open('/docs/authentication', page);
    await expect(page.locator('button.navbar__toggle').isVisible()).resolves.toBe(false);
    await page.setViewportSize({ width: 996, height: 900 });
    await page.locator('button.navbar__toggle').waitFor({ state: 'visible' });
    await page.locator('button.navbar__toggle').click();
    const sidebar = page.locator('.navbar-sidebar');
    await sidebar.waitFor({ state: 'visible' });
    await sidebar.getByText(/Back to main menu/).click();
    await expect(sidebar.getByText('API Reference', { exact: true }).isVisible()).resolves.toBe(true);
    await shot(page, 'mobile-menu-996');
  });

  it('keeps the colour mode across reloads (localStorage "theme"), light by default', async () => {
    const { page } = await open('/docs');
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('light');
    await page.getByRole('button', { name: /dark mode|light mode|system mode/i }).first().click();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await expect(page.evaluate(() => localStorage.getItem('theme'))).resolves.toBe('dark');
    await page.reload();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await shot(page, 'docs-dark');
  });

  it('switches docs version from the dropdown and remembers the choice', async () => {
    const { page } = await open('/blog');
    await expect(page.evaluate(() => localStorage.getItem('docs-preferred-version-default'))).resolves.toBeNull();
    const dropdown = page.locator('.navbar__item.dropdown', { has: page.locator('a.navbar__link', { hasText: versionLabel }) });
    await dropdown.hover();
    const item = dropdown.locator('.dropdown__menu a.dropdown__link', { hasText: versionLabel });
    await item.waitFor({ state: 'visible' });
    await expect(dropdown.locator('.dropdown__menu a.dropdown__link').allInnerTexts()).resolves.toEqual([versionLabel, 'Changelog']);
    await item.click();
    await page.waitForURL(/\/docs\/?$/);
    await expect(page.locator('main h1').innerText()).resolves.toBe('Introduction');
    await expect(page.evaluate(() => localStorage.getItem('docs-preferred-version-default'))).resolves.toBe('current');
  });

  it('finds an operation with the local search: "Login" leads to the Login page', async () => {
    const { page } = await open('/');
    const input = page.locator('input.navbar__search-input');
    await input.click();
    await input.pressSequentially('Login', { delay: 50 });
    const hit = page.getByRole('option').filter({ hasText: 'Documentation › Authorization › Log a client in' }).first();
    await hit.waitFor({ state: 'visible', timeout: 15_000 });
    await shot(page, 'search-login');
    await hit.click();
    await page.waitForURL(/\/docs\/Authorization\/Login/);
    await expect(page.locator('h1.openapi__heading').innerText()).resolves.toBe('Log a client in');
  });

  it('the home page renders on a phone', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await open('/', page);
    await expect(page.locator('header h1').innerText()).resolves.toBe('Coverline Developers');
    await expect(page.locator('button.navbar__toggle').isVisible()).resolves.toBe(true);
    await shot(page, 'home-phone');
  });
});

/**
 * The demo console (/demo, issue 30) in the built site, against a running API: a client signs in and
 * sees the products it can buy, and every state of the page passes axe-core's WCAG A/AA rules with no
 * serious or critical violation, in light and dark mode, at 1280 px and at 390 px.
 * Run with `npm run test:docs -- docs/test/console.test.ts` after `npm run docs:build`.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { artifacts, axeViolations, blocking, startStage, type Stage, type Violation } from './support.js';

const SANDBOX_API_KEY = 'sk_sandbox_coverline_0000000000000000';

/**
 * Violations of the site's own chrome, not the console's, found by this check on every page at
 * 1280 px (see /work/notes/console-spike.md): the navbar is wider than 1280 px, so "Blog" sits
 * under "API Reference" (target-size, both modes), and the search box's "ctrl K" hint is #bec3c9 on
 * #ebedf0 (color-contrast 1.5:1, light mode). Allowed here by rule and element only, so anything
 * else fails; the console work fixes both and empties this list.
 */
const KNOWN_SITE_VIOLATIONS = [
  { id: 'target-size', target: '.navbar__item.navbar__link[href$="blog"]' },
  { id: 'color-contrast', target: 'kbd:nth-child(1)' },
];
const unknown = (violations: Violation[]) => blocking(violations)
  .map((v) => ({ ...v, targets: v.targets.filter((t) => !KNOWN_SITE_VIOLATIONS.some((k) => k.id === v.id && t.startsWith(`${k.target}:`))) }))
  .filter((v) => v.targets.length > 0);

let stage: Stage;
let site: Stage['site'];
let api: Stage['api'];
let browser: Browser;

beforeAll(async () => {
  stage = await startStage();
  ({ site, api, browser } = stage);
}, 120_000);

afterAll(() => stage?.close());

/** A client signed up through the API, as the console's sign-up screen will do. */
async function signUp(): Promise<{ email: string; password: string }> {
  const email = `console.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 's3cure-Pass';
  const response = await fetch(`${api.url}/auth/signup`, {
    method: 'POST',
    headers: { 'Api-Key': SANDBOX_API_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'INDIVIDUAL', firstName: 'Ama', lastName: 'Owusu', email, password, country: 'GH', groups: [] }),
  });
  expect(response.status).toBe(201);
  return { email, password };
}

describe('the demo console', () => {
  const report: Record<string, Violation[]> = {};

  afterAll(() => {
    // Every violation found (minor and moderate too), for the spike's notes.
    console.log(JSON.stringify(report, null, 1));
  });

  for (const mode of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`signs a client in, lists products, and passes axe-core (${mode}, ${width} px)`, async () => {
        const { email, password } = await signUp();
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        // The API the console calls: the Send API Request panel's setting, as that panel stores it.
        await context.addInitScript((baseUrl) => {
          window.sessionStorage.setItem('server', JSON.stringify({ url: '{baseUrl}', variables: { baseUrl: { default: baseUrl } } }));
        }, api.url);
        const page: Page = await context.newPage();
        try {
          await page.goto(`${site.url}/demo?docusaurus-theme=${mode}`, { waitUntil: 'load' });
          await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe(mode);
          await expect(page.getByLabel('API base URL').inputValue()).resolves.toBe(api.url);

          const signedOut = await axeViolations(page);
          report[`${mode} ${width} signed out`] = signedOut;

          await page.getByLabel('E-mail or phone number').fill(email);
          await page.getByLabel('Password', { exact: true }).fill(password);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByRole('heading', { name: /Products you can buy \(\d+\)/ }).waitFor();
          await expect(page.locator('[data-product-id]').count()).resolves.toBeGreaterThan(0);
          await page.screenshot({ path: path.join(artifacts(), `console-${mode}-${width}.png`), fullPage: true });

          const products = await axeViolations(page);
          report[`${mode} ${width} products`] = products;
          const consoleOnly = await axeViolations(page, 'main');

          // The check can fail: an input without a label is reported, as a critical violation.
          await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<input id="unlabelled">'));
          expect(blocking(await axeViolations(page, 'main')).map((v) => v.id)).toContain('label');

          // The console itself: nothing serious or critical at all; the whole page: nothing but the known.
          expect(blocking(consoleOnly)).toEqual([]);
          expect(unknown(signedOut)).toEqual([]);
          expect(unknown(products)).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});

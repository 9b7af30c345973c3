import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREATE_POLICY_KINDS, DOC_PAGE_FAMILIES, DOC_PAGES, HAND_WRITTEN_PAGES, QUOTE_KINDS, SYSTEM_OPERATIONS } from '../helpers/doc-pages.js';

// Every operation's documentation page path comes from its `x-doc-slug` (docs/ generates one page
// per operation at /docs/<x-doc-slug>). These tests hold the contract to the surface map's page
// paths, so a new operation cannot ship without a page, or with one at the wrong address.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface Operation { operationId: string; method: string; path: string; slug: unknown }

function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [route, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push({ operationId: op.operationId, method: method.toUpperCase(), path: route, slug: op['x-doc-slug'] });
    }
  }
  return out;
}

/** Every way the operations' slugs break the rules; empty when they keep them. */
function slugProblems(doc: any): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string[]>();
  for (const op of operationsOf(doc)) {
    const name = `${op.operationId} (${op.method} ${op.path})`;
    if (op.slug === undefined) {
      if (!SYSTEM_OPERATIONS.includes(op.operationId)) problems.push(`${name} has no x-doc-slug`);
      continue;
    }
    if (typeof op.slug !== 'string' || !/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(op.slug)) {
      problems.push(`${name}: x-doc-slug ${JSON.stringify(op.slug)} is not a page path like "Authorization/Login" (no leading /docs/ or slash)`);
      continue;
    }
    owners.set(op.slug, [...(owners.get(op.slug) ?? []), op.operationId]);
    if (HAND_WRITTEN_PAGES.includes(op.slug)) problems.push(`${name}: x-doc-slug ${op.slug} is a hand-written page of the docs site`);
    const expected = DOC_PAGES[op.operationId];
    if (expected !== undefined) {
      if (op.slug !== expected) problems.push(`${name}: x-doc-slug ${op.slug} disagrees with the surface map, which says ${expected}`);
      continue;
    }
    const family = DOC_PAGE_FAMILIES.find((f) => f.operationId.test(op.operationId));
    if (family && !family.page.test(op.slug)) problems.push(`${name}: x-doc-slug ${op.slug} is not one of the surface map's pages ${family.page}`);
  }
  for (const [slug, ids] of owners) {
    if (ids.length > 1) problems.push(`x-doc-slug ${slug} is shared by ${ids.join(', ')}`);
  }
  return problems;
}

const bundle = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));

describe('x-doc-slug: every operation has its documentation page', () => {
  it('holds for the contract: every operation but the system ones has a slug, none shared, each where the surface map puts it', () => {
    expect(slugProblems(bundle)).toEqual([]);
  });

  it('has a page for every page of the surface map: every seed route of the docs site is generated', () => {
    const expected = [
      ...Object.values(DOC_PAGES),
      ...CREATE_POLICY_KINDS.map((kind) => `Policies/Create-policy/${kind}`),
      ...QUOTE_KINDS.map((kind) => `policy-quotes/Get-quote/${kind}`),
    ];
    const slugs = new Set(operationsOf(bundle).map((op) => op.slug));
    expect(expected.filter((page) => !slugs.has(page))).toEqual([]);
  });

  it('names pages for the operations in the contract today', () => {
    const slugs = new Map(operationsOf(bundle).map((op) => [op.operationId, op.slug]));
    expect(slugs.get('login')).toBe('Authorization/Login');
    expect(slugs.get('getAccount')).toBe('account/account_info');
    expect(slugs.get('listProducts')).toBe('Products/all-products');
  });

  // The checks themselves, on small documents, so a check that passes everything cannot hide.
  const doc = (ops: Record<string, Record<string, unknown>>) => ({
    paths: Object.fromEntries(Object.entries(ops).map(([route, op]) => [route, { get: op }])),
  });

  it('fails an operation without a slug, but not a system one', () => {
    expect(slugProblems(doc({ '/a': { operationId: 'listInsurers' }, '/health': { operationId: 'getHealth' } })))
      .toEqual(['listInsurers (GET /a) has no x-doc-slug']);
  });

  it('fails two operations sharing a slug', () => {
    expect(slugProblems(doc({
      '/a': { operationId: 'listThings', 'x-doc-slug': 'things/all' },
      '/b': { operationId: 'listThingsLegacy', 'x-doc-slug': 'things/all' },
    }))).toEqual(['x-doc-slug things/all is shared by listThings, listThingsLegacy']);
  });

  it('fails a slug that disagrees with the surface map', () => {
    expect(slugProblems(doc({ '/auth/login': { operationId: 'login', 'x-doc-slug': 'auth/login' } })))
      .toEqual(['login (GET /auth/login): x-doc-slug auth/login disagrees with the surface map, which says Authorization/Login']);
  });

  it('fails a per-kind policy or quote page the surface map does not list', () => {
    expect(slugProblems(doc({
      '/p': { operationId: 'createAutoPolicy', 'x-doc-slug': 'Policies/Create-policy/auto' },
      '/q': { operationId: 'createHomeQuote', 'x-doc-slug': 'quotes/home' },
    }))).toEqual([expect.stringContaining('createHomeQuote (GET /q): x-doc-slug quotes/home is not one of')]);
  });

  it('fails a malformed slug and one that takes a hand-written page', () => {
    expect(slugProblems(doc({
      '/a': { operationId: 'a', 'x-doc-slug': '/docs/things/all' },
      '/b': { operationId: 'b', 'x-doc-slug': 'authentication' },
    }))).toEqual([
      expect.stringContaining('a (GET /a): x-doc-slug "/docs/things/all" is not a page path'),
      'b (GET /b): x-doc-slug authentication is a hand-written page of the docs site',
    ]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { publishedDocument } from '../../server/platform/openapi.js';

/**
 * Tests are findable from the operation: a `describe` about a route (`POST /client/claims`) opens
 * with the operationIds it covers (`createClaim: POST /client/claims`), so a search for an
 * operationId (the docs page's, the SDK's method) finds its tests.
 */

const root = path.resolve(import.meta.dirname, '..');
const document = publishedDocument() as { paths: Record<string, Record<string, { operationId?: string }>> };
const operationIds = new Set(Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId).filter(Boolean)));
const titles = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .flatMap((file) => [...readFileSync(path.join(root, file), 'utf8').matchAll(/describe\((['`"])(.*?)\1/g)].map((m) => ({ file, title: m[2] })));
const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE)\b[^:]*\//;

test('every describe about a route opens with the operationIds it covers, each one the contract has', () => {
  const unnamed = titles.filter(({ title }) => ROUTE.test(title)).filter(({ title }) => {
    const named = /^([A-Za-z]+(?:, [A-Za-z]+)*): /.exec(title);
    return !named || !named[1].split(', ').every((id) => operationIds.has(id));
  });
  expect(unnamed.map(({ file, title }) => `${file}: ${title}`)).toEqual([]);
});

test('the check reads the titles it judges (a known one is found)', () => {
  expect(titles.some(({ title }) => title.startsWith('createClaim: POST /client/claims'))).toBe(true);
});

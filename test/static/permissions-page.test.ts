import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PERMISSIONS, POSITIONS, STAFF_TYPES } from '../../server/domain/staff/permissions.js';
import { operationIndex } from '../../server/platform/openapi.js';
import { PERMISSIONS_PAGE, permissionsPage } from '../../scripts/permissions-page.js';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));
const operations = [...operationIndex(bundle).values()];
const staffOperations = operations.filter((op) => op.security.some((requirement) => 'staffAuth' in requirement));

describe('the staff permission table', () => {
  it('has a row for every staff call of the contract, and none for anything else', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual(staffOperations.map((op) => op.operationId).sort());
  });

  it('grants each type and position at most once per call, with a reason', () => {
    for (const [operationId, { grants, reason }] of Object.entries(PERMISSIONS)) {
      const cells = grants.map((g) => `${g.type}/${g.position}`);
      expect({ operationId, duplicates: cells.filter((c, i) => cells.indexOf(c) !== i) }).toEqual({ operationId, duplicates: [] });
      expect(reason.length).toBeGreaterThan(10);
      for (const g of grants) {
        expect(STAFF_TYPES).toContain(g.type);
        expect(POSITIONS).toContain(g.position);
      }
    }
  });

  it('follows the hierarchy: whatever a position may do, every position above it of the same type may, over at least as much', () => {
    const breadth = ['OWN', 'DEPARTMENT', 'BRANCH', 'TENANT'];
    const gaps: string[] = [];
    for (const [operationId, { grants }] of Object.entries(PERMISSIONS)) {
      for (const grant of grants) {
        for (const above of POSITIONS.slice(POSITIONS.indexOf(grant.position) + 1)) {
          const senior = grants.find((g) => g.type === grant.type && g.position === above);
          if (!senior || breadth.indexOf(senior.scope) < breadth.indexOf(grant.scope)) gaps.push(`${operationId}: ${grant.type} ${above} below ${grant.position}`);
        }
      }
    }
    expect(gaps).toEqual([]);
  });

  it('is the docs page, as generated (npm run generate writes it)', () => {
    expect(readFileSync(path.join(root, PERMISSIONS_PAGE), 'utf8')).toBe(permissionsPage(bundle));
  });

  it('the page shows a refused cell as a dash and a granted one as its reach', () => {
    const page = permissionsPage(bundle);
    expect(page).toMatch(/\| The staff permission table<br\/>`GET \/staff\/permissions` \| own \| own \| own \| own \| own \|/);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { STATES_PAGE, statesPage } from '../../scripts/states-page.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('the state machine page', () => {
  it('is the docs page, as generated from the machines (npm run generate writes it)', () => {
    expect(readFileSync(path.join(root, STATES_PAGE), 'utf8')).toBe(statesPage());
  });

  it('lists each machine\'s moves with who may make them', () => {
    const page = statesPage();
    expect(page).toContain('| `PENDING_APPROVAL` | `APPROVED` | staff |');
    expect(page).toContain('| `ACTIVE` | `EXPIRED` | the API itself (payments, jobs) |');
    expect(page).toContain('| `REVIEW` | `SETTLEMENT` | staff |');
    expect(page).toMatch(/Final \(nothing leaves them\): `ARCHIVED`\./);
  });
});

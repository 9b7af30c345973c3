import path from 'node:path';
import { POLICY_KINDS } from '../../server/domain/policies/kinds/index.js';
import { policyKindPaths, readPolicyKinds, typedOperationsModule } from '../../scripts/policy-kinds.js';
import { kindProblems } from '../helpers/policy-kinds.js';
import { pet } from '../fixtures/policy-kinds/pet.js';

// The table spec/policy-kinds.yaml against the registry server/domain/policies/kinds/index.ts: every
// row's kind has a module and every module a row (test/helpers/policy-kinds.ts). Adding a kind is a
// row and a module: the fixture kind PET (test/fixtures/policy-kinds/) goes through the same checks
// and the same generator as the real table, touching no other file. Files only: no database.

const root = path.resolve(import.meta.dirname, '../..');
const rows = readPolicyKinds(root);
const [petRow] = readPolicyKinds(root, 'test/fixtures/policy-kinds/pet.yaml');

describe('the policy kinds: spec/policy-kinds.yaml against server/domain/policies/kinds/', () => {
  it('agree: each row has a module, each module a row, each example passes its module', () => {
    expect(kindProblems(rows, POLICY_KINDS)).toEqual([]);
  });

  it('register each policy type once', () => {
    const types = POLICY_KINDS.map((kind) => kind.policyType);
    expect(new Set(types).size).toBe(types.length);
  });
});

describe('a new kind as a fixture: a row (pet.yaml) and a module (pet.ts)', () => {
  it('passes the kind checks', () => {
    expect(kindProblems([...rows, petRow], [...POLICY_KINDS, pet])).toEqual([]);
  });

  it('gets its typed create and quote from the generator: path files and operationIds', () => {
    const paths = policyKindPaths([...rows, petRow]);
    expect(paths.get('client-policies-pet.yaml')).toContain('operationId: createPetPolicy');
    expect(paths.get('client-quotes-pet.yaml')).toContain('operationId: createPetQuote');
    const operations = typedOperationsModule([...rows, petRow]);
    expect(operations).toMatch(/typedCreateOperations = \[[^\]]*'createPetPolicy',/);
    expect(operations).toMatch(/quoteOperations = \[[^\]]*'createPetQuote',/);
  });

  it('fails with a row and no module, naming the kind and where its module goes', () => {
    expect(kindProblems([...rows, petRow], POLICY_KINDS)).toEqual([
      'PET (spec/policy-kinds.yaml row PetPolicyCreate) has no module: write one in server/domain/policies/kinds/ and register it in kinds/index.ts',
    ]);
  });

  it('fails with a module and no row, naming the kind and the table', () => {
    expect(kindProblems(rows, [...POLICY_KINDS, pet])).toEqual([
      'PET (module "Pet" in server/domain/policies/kinds/) has no row in spec/policy-kinds.yaml: add one (policyType and schema, and create/quote for typed calls)',
    ]);
  });

  it('fails when its module refuses its row\'s example, naming the field', () => {
    const example = { ...petRow.example, assets: [{ ...(petRow.example!.assets as object[])[0], dateMicrochipped: '2020-01-01' }] };
    expect(kindProblems([...rows, { ...petRow, example }], [...POLICY_KINDS, pet])).toEqual([
      'PET: the example of spec/policy-kinds.yaml row PetPolicyCreate does not pass its module\'s asset rules and rater: body.assets[0].dateMicrochipped must not be before body.assets[0].dateOfBirth',
    ]);
  });

  it('fails when two modules register it', () => {
    expect(kindProblems([...rows, petRow], [...POLICY_KINDS, pet, pet])).toEqual([
      'PET: two modules of server/domain/policies/kinds/ register it (registry: kinds/index.ts)',
    ]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { POLICY_TYPES } from '../../server/domain/policies/types-catalogue.js';
import { GENERATED_DIR, policyKindPaths, readPolicyKinds, TYPED_OPERATIONS_FILE, typedOperationsModule } from '../../scripts/policy-kinds.js';

// The typed policy creates and quotes (their path files and operationIds) are written from
// spec/policy-kinds.yaml (scripts/policy-kinds.ts, run by `npm run generate`). These checks read files only: no database.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const kinds = readPolicyKinds(root);
const readYaml = (file: string) => parse(readFileSync(path.join(root, file), 'utf8'));

describe('generated/policy-kinds.ts', () => {
  it('holds the typed creates\' and quotes\' operationIds the table makes (else run npm run generate)', () => {
    expect(readFileSync(path.join(root, TYPED_OPERATIONS_FILE), 'utf8')).toBe(typedOperationsModule(kinds));
  });
});

describe('spec/paths/generated/', () => {
  it('holds exactly what the table and the templates make (else run npm run generate)', () => {
    const expected = policyKindPaths(kinds);
    const dir = path.join(root, GENERATED_DIR);
    const onDisk = new Map(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]));
    expect([...onDisk.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) expect({ name, text: onDisk.get(name) }).toEqual({ name, text });
  });

  it('is what spec/openapi.yaml routes each typed create and quote to, and nothing else', () => {
    const routed = Object.entries(readYaml('spec/openapi.yaml').paths as Record<string, { $ref?: string }>)
      .filter(([, item]) => item.$ref?.startsWith('paths/generated/'))
      .map(([route, item]) => `${route} -> ${item.$ref}`);
    expect(routed.sort()).toEqual([
      ...kinds.filter((k) => k.create).map((k) => `/client/policies/${k.create!.path} -> paths/generated/client-policies-${k.create!.path}.yaml`),
      ...kinds.filter((k) => k.quote).map((k) => `/client/quotes/${k.quote!.path} -> paths/generated/client-quotes-${k.quote!.path}.yaml`),
    ].sort());
  });
});

describe('spec/policy-kinds.yaml', () => {
  it('lists the 23 typed creates and the 10 quotes', () => {
    expect(kinds.filter((k) => k.create)).toHaveLength(23);
    expect(kinds.filter((k) => k.quote)).toHaveLength(10);
  });

  it.each(kinds.map((k) => [k.schema, k] as const))('%s: a policy type of the contract, its schema and its example agree', (_schema, kind) => {
    expect(Object.keys(POLICY_TYPES)).toContain(kind.policyType);
    const file = `spec/components/schemas/policy-create/${kind.schema}.yaml`;
    expect(existsSync(path.join(root, file))).toBe(true);
    const schema = readYaml(file);
    expect({ title: schema.title, policyType: schema.properties.policyType.const, example: (kind.example ?? kind).policyType })
      .toEqual({ title: kind.schema, policyType: kind.policyType, example: kind.policyType });
  });

  it('has a row for every policy type of the contract (each row\'s kind a module: policy-kind-registry.test.ts)', () => {
    expect([...new Set(kinds.map((k) => k.policyType))].sort()).toEqual(Object.keys(POLICY_TYPES).sort());
  });

  it('has the typed create of every policy type the contract gives one (POLICY_TYPES.createPath)', () => {
    const typedCreates = Object.entries(POLICY_TYPES).filter(([, info]) => info.createPath).map(([type, info]) => `${type} ${info.createPath}`);
    const inTable = kinds.filter((k) => k.create).map((k) => `${k.policyType} /client/policies/${k.create!.path}`);
    expect(inTable).toEqual(expect.arrayContaining(typedCreates));
  });
});

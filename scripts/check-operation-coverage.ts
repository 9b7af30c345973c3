/**
 * After the test suite: every operation in the contract must have been called by at least one
 * hand-written test (the harness records them in OPERATION_COVERAGE_DIR; the fuzzer does not count).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { operationIndex } from '../server/platform/openapi.js';

const dir = process.env.OPERATION_COVERAGE_DIR ?? process.argv[2];
if (!dir) {
  console.error('usage: OPERATION_COVERAGE_DIR=<dir> tsx scripts/check-operation-coverage.ts');
  process.exit(2);
}
const called = new Set<string>();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  for (const id of JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as string[]) called.add(id);
}
const all = [...operationIndex().keys()];
const missing = all.filter((id) => !called.has(id));
console.log(`${all.length - missing.length} of ${all.length} operations are called by a test`);
if (missing.length) {
  console.error(`no test calls: ${missing.join(', ')}`);
  process.exit(1);
}

/**
 * `npm run contract:breaking`: compares generated/openapi.json with the published contract,
 * spec/baseline/openapi.json (what existing clients and SDKs were built against), and fails when
 * a change would break such a client (scripts/breaking.ts says what counts). Prints every breaking
 * change; otherwise one summary line (CONTRACT_VERBOSE=1 also lists the other changes).
 *
 * `npm run contract:accept` (`--accept`) makes generated/openapi.json the new baseline, for a
 * deliberate release. A breaking change needs a new API version, not just an accept.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBreakingChanges, type BreakingReport, type Change } from './breaking.js';
import { ConversionError, type Obj } from './openapi30.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file: string) => path.relative(root, file);
const currentPath = path.join(root, 'generated/openapi.json');
const baselinePath = path.join(root, 'spec/baseline/openapi.json');

class Failure extends Error {}
const read = (file: string, hint: string): Obj => {
  if (!existsSync(file)) throw new Failure(`${rel(file)} is missing: ${hint}`);
  return JSON.parse(readFileSync(file, 'utf8')) as Obj;
};
const line = (c: Change) => `  ${c.where}: ${c.message} [${c.code}, ${c.source}]`;
const counts = (r: BreakingReport) => `${r.nonBreaking.length} non-breaking${r.unclassified.length ? `, ${r.unclassified.length} unclassified` : ''}`;

async function check(): Promise<number> {
  const current = read(currentPath, 'run `npm run generate`');
  const baseline = read(baselinePath, 'it is the published contract; `npm run contract:accept` creates it from generated/openapi.json');
  const report = await findBreakingChanges(baseline, current);
  const verbose = Boolean(process.env.CONTRACT_VERBOSE);
  const others = () => {
    if (report.nonBreaking.length) console.log(`non-breaking:\n${report.nonBreaking.map(line).join('\n')}`);
    if (report.unclassified.length) console.log(`unclassified (not failing; judge them):\n${report.unclassified.map(line).join('\n')}`);
  };
  if (!report.breaking.length) {
    console.log(`no breaking changes against ${rel(baselinePath)} (${counts(report)})`);
    if (verbose) others();
    return 0;
  }
  console.error(`${report.breaking.length} breaking change(s) against ${rel(baselinePath)}, the contract existing clients were built against:`);
  console.error(report.breaking.map(line).join('\n'));
  console.error(`(${counts(report)}${verbose ? '' : '; CONTRACT_VERBOSE=1 lists them'})`);
  if (verbose) others();
  console.error('Make the change compatible (optional instead of required, add instead of rename or remove), or release it as a\n' +
    'new API version; `npm run contract:accept` only records a deliberate release as the new baseline.');
  return 1;
}

async function accept(): Promise<number> {
  read(currentPath, 'run `npm run generate`');
  if (existsSync(baselinePath)) {
    const report = await findBreakingChanges(read(baselinePath, ''), read(currentPath, ''));
    for (const change of report.breaking) console.log(`accepting a breaking change:\n${line(change)}`);
    console.log(`${report.breaking.length} breaking, ${counts(report)} change(s) accepted`);
  }
  mkdirSync(path.dirname(baselinePath), { recursive: true });
  copyFileSync(currentPath, baselinePath);
  console.log(`${rel(baselinePath)} is now ${rel(currentPath)}: commit it with the release`);
  return 0;
}

try {
  process.exitCode = await (process.argv.includes('--accept') ? accept() : check());
} catch (error) {
  // Known failures get one line; anything else is a bug here and keeps its stack.
  const openapiDiffError = error instanceof Error && 'code' in error && String(error.code).startsWith('OPENAPI_DIFF');
  if (!(error instanceof Failure || error instanceof ConversionError || error instanceof SyntaxError || openapiDiffError)) throw error;
  console.error(`contract:breaking: FAILED: ${error.message}`);
  process.exitCode = 1;
}

/**
 * `npm run contract:breaking`: compares generated/openapi.json with the published contract,
 * spec/baseline/openapi.json (what existing clients and SDKs were built against), and fails when
 * a change would break such a client (scripts/breaking.ts says what counts). Prints every breaking
 * change; otherwise one summary line (CONTRACT_VERBOSE=1 also lists the other changes).
 *
 * `npm run contract:accept` (`--accept`) makes generated/openapi.json the new baseline, for a
 * deliberate release, and records what changed for the Changelog (spec/releases/). A breaking change needs a new API version, not just an accept.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBreakingChanges, type BreakingReport, type Change } from './breaking.js';
import { changesFile, readRecordedChanges, readReleases, recordChanges, RELEASES_FILE } from './changelog-page.js';
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

/**
 * Records generated/openapi.json as a release: its info.version must have notes in
 * spec/releases/releases.yaml; what the check finds against the previous baseline is written to
 * spec/releases/changes/<version>.json (added to what is there when the same version is recorded
 * again), and the bundle becomes the baseline. The Changelog page is generated from both.
 */
async function accept(): Promise<number> {
  const current = read(currentPath, 'run `npm run generate`');
  const version = String((current.info as Obj | undefined)?.version ?? '');
  if (!readReleases(root).some((release) => release.version === version)) {
    throw new Failure(`${RELEASES_FILE} has no entry for version ${version} (info.version): add its date and notes first`);
  }
  if (existsSync(baselinePath)) {
    const baseline = read(baselinePath, '');
    const report = await findBreakingChanges(baseline, current);
    for (const change of report.breaking) console.log(`accepting a breaking change:\n${line(change)}`);
    console.log(`${report.breaking.length} breaking, ${counts(report)} change(s) accepted`);
    const from = String((baseline.info as Obj | undefined)?.version ?? '');
    const before = from === version ? readRecordedChanges(root, version) : undefined;
    const recorded = recordChanges(before?.from ?? from, version, report);
    if (before) {
      for (const list of ['breaking', 'nonBreaking', 'unclassified'] as const) recorded[list] = [...before[list], ...recorded[list]];
    }
    mkdirSync(path.dirname(path.join(root, changesFile(version))), { recursive: true });
    writeFileSync(path.join(root, changesFile(version)), `${JSON.stringify(recorded, null, 2)}\n`);
  }
  mkdirSync(path.dirname(baselinePath), { recursive: true });
  copyFileSync(currentPath, baselinePath);
  console.log(`${rel(baselinePath)} is now ${rel(currentPath)} (version ${version}): run \`npm run generate\` (the Changelog page) and commit them with the release`);
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

/**
 * `npm run build`: the API as plain JavaScript in `dist/` (`npm run start:built` runs it), for
 * deployments. `npm start` runs the TypeScript through tsx, which keeps every module's transform and
 * source map in the process: about 75 MB more resident memory at rest (`npm run bench`, the RSS at
 * rest case). tsc writes the code; this copies what the code reads beside it (the bundled contract,
 * the reference and sandbox data).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const asset of ['generated/openapi.json', 'server/platform/db/data']) {
  cpSync(path.join(root, asset), path.join(dist, asset), { recursive: true });
}
console.log(`built into ${path.relative(process.cwd(), dist) || '.'}/: npm run start:built`);

import { execFileSync } from 'node:child_process';

/**
 * Jest's globalSetup (the `api` project): the migrated database every harness copies, made once
 * before the workers start (test/helpers/database-template.ts). Made in a child process through
 * tsx: Jest loads this file outside its ESM module system, where the server's `.js` imports of
 * `.ts` files do not resolve.
 */
export default function globalSetup() {
  execFileSync(process.execPath, ['--import', 'tsx', 'test/helpers/database-template.ts', '--prepare'], { stdio: 'inherit', env: process.env });
}

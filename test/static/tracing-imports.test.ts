import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * With tracing off no OpenTelemetry code is loaded (server/platform/observability/tracing.ts): only
 * the SDK file, itself imported by `import()` when tracing is on, imports its packages; any other
 * file names them in `import type` alone (erased when compiled). test/http/tracing.test.ts checks
 * the same at run time.
 */

const root = path.resolve(import.meta.dirname, '../..');
const SDK_FILE = 'server/platform/observability/tracing-sdk.ts';
const files = ['server', 'handlers'].flatMap((dir) => readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))));

/** The modules a file loads when it runs: static imports and re-exports that are not type-only, and `import()`s. */
function loadedBy(file: string): { static: string[]; dynamic: string[] } {
  const source = readFileSync(path.join(root, file), 'utf8');
  const statics = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((match) => match[1]);
  const dynamic = [...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1]);
  return { static: statics, dynamic };
}

const isOpenTelemetry = (specifier: string) => specifier.startsWith('@opentelemetry/') || specifier === '@fastify/otel';

test('only the SDK file loads OpenTelemetry packages', () => {
  const offenders = files.filter((file) => file !== SDK_FILE)
    .flatMap((file) => [...loadedBy(file).static, ...loadedBy(file).dynamic].filter(isOpenTelemetry).map((specifier) => `${file}: ${specifier}`));
  expect(offenders).toEqual([]);
  expect(loadedBy(SDK_FILE).static.filter(isOpenTelemetry).length).toBeGreaterThan(0);
});

test('the SDK file is loaded by import() alone', () => {
  const statically = files.filter((file) => loadedBy(file).static.some((specifier) => specifier.endsWith('/tracing-sdk.js') || specifier === './tracing-sdk.js'));
  expect(statically).toEqual([]);
  expect(files.filter((file) => loadedBy(file).dynamic.includes('./tracing-sdk.js'))).toEqual(['server/platform/observability/tracing.ts']);
});

import v8 from 'node:v8';
import { createRequire } from 'node:module';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent.
 * V8's own factor is up to 4x when collections are cheap: with some 55 MB live, an export (about
 * 30 KB of short-lived objects per row, in exceljs and the row mapping) let the heap reach 220 MB of
 * mostly garbage before the next full collection, and the process's RSS 430 MB. At 50% the heap is
 * collected at about 1.5x what is live: the 100k-policy export peaks under 300 MB RSS, for a few
 * more (short) full collections.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Bounds the heap's growth between full collections (V8's `--heap-growing-percent`, read at each
 * collection, so it holds when set at start). Called by the server's entry points (`npm start`,
 * the bench's server) before the app is built.
 */
export function boundHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on first use rather than at start: a package that only some calls need
 * (the e-mail templates' engine, the SMTP client) stays out of every instance's memory at rest.
 */
export function loadWhenUsed<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}

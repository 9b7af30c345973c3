import { isDeepStrictEqual } from 'node:util';

/**
 * An event's `previous`: the fields of an object's API view whose value `after` differs from
 * `before`, with their values before (`updatedAt` aside, which every write moves); null when
 * nothing the API shows changed, and then no event is recorded.
 */
export function changedFields<T extends object>(before: T, after: T): Partial<T> | null {
  const changed = Object.entries(before)
    .filter(([key, value]) => key !== 'updatedAt' && !isDeepStrictEqual(value, (after as Record<string, unknown>)[key]));
  return changed.length ? Object.fromEntries(changed) as Partial<T> : null;
}

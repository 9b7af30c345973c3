import { isDeepStrictEqual } from 'node:util';

/**
 * What an update changed, as an event's `previous` holds it: each field of the object's view
 * (as the API answers it) whose value differs after the change, with its value before; `ignore`
 * names fields that always move (`updatedAt`) or that another event reports. Null when nothing
 * changed, so the caller emits nothing.
 */
export function changedFields(before: object, after: object, ignore: readonly string[] = ['updatedAt']): Record<string, unknown> | null {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((key) => !ignore.includes(key));
  const changed = keys.filter((key) => !isDeepStrictEqual(was[key], now[key]));
  return changed.length === 0 ? null : Object.fromEntries(changed.map((key) => [key, was[key] ?? null]));
}

/**
 * The contract's examples are written for one day, `info.x-examples-anchor-date` (see
 * spec/README.md): a policy starting "next week", a claim "last week". The committed bundle keeps
 * those dates, so it does not change from one day to the next; what readers are shown (the served
 * `GET /openapi.json`, the documentation site) has every date of every example moved by the days
 * between that day and today, so the examples stay as true as on the day they were written: a
 * policy example still starts in the future, a claim's loss is still in the past.
 *
 * Only example values move (`example`, a schema's `examples` array, the `value` of each named
 * example of a media type, a parameter or `components.examples`); defaults, enums, consts,
 * descriptions and everything else stay as written. In those values every `YYYY-MM-DD` moves,
 * alone, as the date of a date-time (the time of day is kept) or inside a text (an error message
 * quoting a date). Kept free of imports: the documentation site's build loads it too.
 */

export const ANCHOR_EXTENSION = 'x-examples-anchor-date';

const DAY_MS = 86_400_000;
/** A calendar date not part of a longer run of digits (`2026-11-21`, the date of `2026-11-21T09:00:00Z`). */
const DATE = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/g;
/** Keywords whose value is a map of names to schemas: a property called `example` is not an example. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** The anchor day a contract's examples are written for (`info.x-examples-anchor-date`, `YYYY-MM-DD`). */
export function examplesAnchorDate(doc: { info?: Record<string, unknown> }): string {
  const anchor = doc.info?.[ANCHOR_EXTENSION];
  if (typeof anchor !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(anchor) || Number.isNaN(Date.parse(`${anchor}T00:00:00Z`))) {
    throw new Error(`the contract's info.${ANCHOR_EXTENSION} must be a date (YYYY-MM-DD), found ${JSON.stringify(anchor)}`);
  }
  return anchor;
}

/** Whole days from the anchor to `today`'s UTC date. */
export function daysSinceAnchor(anchor: string, today: Date): number {
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((todayUtc - Date.parse(`${anchor}T00:00:00Z`)) / DAY_MS);
}

/** Every calendar date in a text moved by `days` (a run of digits that is not a real date is left). */
export function shiftDatesInText(text: string, days: number): string {
  return text.replace(DATE, (match, year: string, month: string, day: string) => {
    const at = Date.UTC(Number(year), Number(month) - 1, Number(day));
    // Date.UTC rolls 2026-02-30 over to March: such a string is not a date, keep it.
    if (new Date(at).toISOString().slice(0, 10) !== match) return match;
    return new Date(at + days * DAY_MS).toISOString().slice(0, 10);
  });
}

/** An example value (any JSON) with the dates of all its strings moved. */
function shiftValue(value: unknown, days: number): unknown {
  if (typeof value === 'string') return shiftDatesInText(value, days);
  if (Array.isArray(value)) return value.map((item) => shiftValue(item, days));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shiftValue(item, days)]));
  }
  return value;
}

/** A named Example Object (`{summary, value}`) with its value moved; a `$ref` is moved where it points. */
function shiftNamedExample(example: unknown, days: number): unknown {
  if (!example || typeof example !== 'object' || Array.isArray(example) || !('value' in example)) return example;
  return { ...example, value: shiftValue((example as { value: unknown }).value, days) };
}

function shiftNode(node: unknown, days: number): unknown {
  if (Array.isArray(node)) return node.map((item) => shiftNode(item, days));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === 'example') out[key] = shiftValue(child, days);
    else if (key === 'examples' && Array.isArray(child)) out[key] = shiftValue(child, days); // a schema's examples
    else if (key === 'examples' && child && typeof child === 'object') {
      // A media type's, a parameter's or components' named examples.
      out[key] = Object.fromEntries(Object.entries(child).map(([name, example]) => [name, shiftNamedExample(example, days)]));
    } else if (SCHEMA_MAPS.has(key) && child && typeof child === 'object' && !Array.isArray(child)) {
      out[key] = Object.fromEntries(Object.entries(child).map(([name, schema]) => [name, shiftNode(schema, days)]));
    } else out[key] = shiftNode(child, days);
  }
  return out;
}

/**
 * A copy of an OpenAPI document whose example dates are moved from its anchor day
 * (`info.x-examples-anchor-date`) to `today` (its UTC date); the document itself is not changed.
 */
export function withExampleDatesFor<T extends { info?: Record<string, unknown> }>(doc: T, today: Date): T {
  const days = daysSinceAnchor(examplesAnchorDate(doc), today);
  return shiftNode(doc, days) as T;
}

import { readdirSync, readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';

/**
 * Every amount the contract takes fits the column it is stored in: the migrations' numeric(p,s)
 * columns against the bundled contract's number maxima. Money is one bound everywhere (MoneyValue's
 * maximum); exchange rates have their own, for their numeric(p,6) columns.
 */
const bundle = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const migrationsDir = new URL('../../server/platform/db/migrations/', import.meta.url);

interface NumericColumn { file: string; column: string; precision: number; scale: number }

/** `name numeric(p,s)` in the migrations' SQL, column definitions and `add column` alike. */
function numericColumns(): NumericColumn[] {
  return readdirSync(migrationsDir).filter((file) => file.endsWith('.ts')).flatMap((file) =>
    [...readFileSync(new URL(file, migrationsDir), 'utf8').matchAll(/(\w+)\s+numeric\(\s*(\d+)\s*,\s*(\d+)\s*\)/gi)]
      .map(([, column, precision, scale]) => ({ file, column, precision: Number(precision), scale: Number(scale) })));
}

/** The largest value a numeric(p,s) column holds: p - s nines, a point, s nines. */
const capacity = ({ precision, scale }: NumericColumn) => new Decimal(10).pow(precision - scale).minus(new Decimal(10).pow(-scale));

interface Bounded { where: string; name: string; maximum: number }

/** Every number schema (not integer) with a maximum, by where it is and the property it bounds. */
function numberMaxima(node: unknown, where: string[] = [], found: Bounded[] = []): Bounded[] {
  if (Array.isArray(node)) node.forEach((item, i) => numberMaxima(item, [...where, String(i)], found));
  else if (node && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    const types = ([] as unknown[]).concat(schema.type ?? []);
    if (types.includes('number') && typeof schema.maximum === 'number') {
      const name = [...where].reverse().find((key) => !['schema', 'additionalProperties', 'items', 'allOf', 'oneOf', 'anyOf', 'properties'].includes(key) && !/^\d+$/.test(key)) ?? '';
      found.push({ where: where.join('/'), name, maximum: schema.maximum });
    }
    for (const [key, value] of Object.entries(schema)) numberMaxima(value, [...where, key], found);
  }
  return found;
}

const columns = numericColumns();
const moneyColumns = columns.filter((c) => c.scale === 2);
const rateColumns = columns.filter((c) => c.column === 'exchange_rate');
const maxima = numberMaxima(bundle);
const isRate = (b: Bounded) => b.name === 'exchangeRate';
/** Bounds of 1000 or less are percentages, ratings and counts, not amounts of money. */
const money = maxima.filter((b) => !isRate(b) && b.maximum > 1000);
const MONEY_MAX: number = bundle.components.schemas.MoneyValue.maximum;

describe('money bounds against the columns', () => {
  it('reads the money and exchange-rate columns from the migrations', () => {
    expect(moneyColumns.length).toBeGreaterThan(10);
    expect(moneyColumns.map((c) => c.column)).toEqual(expect.arrayContaining(['amount', 'premium', 'sum_insured', 'converted_amount']));
    expect(rateColumns.length).toBeGreaterThan(0);
    expect(money.length).toBeGreaterThan(10);
  });

  it('MoneyValue and MoneyAmount have a maximum, and every money field uses that one', () => {
    expect(typeof MONEY_MAX).toBe('number');
    expect(bundle.components.schemas.MoneyAmount.maximum).toBe(MONEY_MAX);
    expect(money.filter((b) => b.maximum !== MONEY_MAX).map((b) => `${b.where}: ${b.maximum}`)).toEqual([]);
  });

  it('the money maximum fits every numeric(p,2) column', () => {
    const tooBig = moneyColumns.filter((c) => new Decimal(MONEY_MAX).greaterThan(capacity(c)));
    expect(tooBig.map((c) => `${c.file}: ${c.column} numeric(${c.precision},${c.scale}) holds at most ${capacity(c).toFixed()}`)).toEqual([]);
  });

  it('the money maximum, and every amount in cents below it, reads back unchanged from a JSON number', () => {
    // A double keeps any decimal of 15 significant digits; past that a cent can be lost.
    const digits = new Decimal(MONEY_MAX).toFixed(2).replace('.', '').replace(/^0+/, '').length;
    expect(digits).toBeLessThanOrEqual(15);
    expect(JSON.parse(JSON.stringify(MONEY_MAX))).toBe(MONEY_MAX);
    expect(new Decimal(MONEY_MAX).toFixed(2)).toBe(String(MONEY_MAX));
  });

  it('every exchange-rate maximum fits the exchange_rate columns', () => {
    const rates = maxima.filter(isRate);
    expect(rates.length).toBeGreaterThan(0);
    const smallest = Decimal.min(...rateColumns.map(capacity));
    expect(rates.filter((b) => new Decimal(b.maximum).greaterThan(smallest)).map((b) => `${b.where}: ${b.maximum} > ${smallest.toFixed()}`)).toEqual([]);
  });
});

import type { ColumnType } from 'kysely';
import type { components } from '../../../../generated/api.js';

/** Column types every table file shares. */

/** The contract's schemas: a column holding one of its enums takes the enum's type from there. */
export type Schemas = components['schemas'];

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** A `date` column: `YYYY-MM-DD` both ways. */
export type PlainDate = string;

/** A `numeric` column: decimal strings out, strings or numbers in. */
export type Numeric = ColumnType<string, string | number, string | number>;

export type Json<T> = ColumnType<T, string, string>;

/** A nullable column added after its table: null unless given. */
export type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type NullableNumeric = ColumnType<string | null, string | number | null, string | number | null>;

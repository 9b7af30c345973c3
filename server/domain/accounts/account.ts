import type { TenantScope } from '../../platform/tenancy.js';
import type { CodeKind } from './codes.js';

/**
 * The kinds of account that sign in with a password, clients and staff, as the pieces they share
 * see them (password checks, changes and resets, one-time codes, notices, tokens): each kind is a
 * small descriptor, written beside its own rules (`clients/account.ts`, `staff/account.ts`).
 */

/** Where an account lives: its table, and the column naming it on the rows it owns (notifications, reset codes). */
export type AccountOwner =
  | { table: 'clients'; owner: 'client_id' }
  | { table: 'staff'; owner: 'staff_id' };

/** Where clients live: their rows, and the column naming them on notifications and codes. */
export const CLIENT = { table: 'clients', owner: 'client_id' } as const satisfies AccountOwner;

/** Where staff members live: their rows, and the column naming them on notifications and codes. */
export const STAFF = { table: 'staff', owner: 'staff_id' } as const satisfies AccountOwner;

/** The columns every kind of account has that the shared pieces read. */
export interface AccountRow {
  id: string;
  email: string | null;
  phone_number: string | null;
  is_active: boolean;
  password_hash: string | null;
  session_version: number;
}

/** A kind of account that signs in with a password, and what its password rules need of it. */
export type PasswordAccount = AccountOwner & {
  /** Prefix of its per-account rate-limit buckets ('' for clients), so two kinds never share one. */
  bucketPrefix: string;
  /** How messages name the account: "your <tenant> <noun>". */
  noun: string;
  /** Its reset codes: owned through `owner`, hashed under their own purpose. */
  resetCode: CodeKind & { table: 'password_reset_codes' };
  /** The account whose email (any case) or phone number is `username`, if any. */
  findByUsername(scope: TenantScope, username: string): Promise<AccountRow | undefined>;
};

/** A username is an email (any case) when it has an `@`, a phone number otherwise. */
export const isEmail = (username: string) => username.includes('@');

/** Where messages for an account go: the username's own channel when given, else email first. */
export function contactFor(account: Pick<AccountRow, 'email' | 'phone_number'>, username?: string) {
  if (username && !isEmail(username) && account.phone_number) return { channel: 'sms' as const, recipient: account.phone_number };
  if (account.email) return { channel: 'email' as const, recipient: account.email };
  return { channel: 'sms' as const, recipient: account.phone_number! };
}

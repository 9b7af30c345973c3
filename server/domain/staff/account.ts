import type { TenantScope } from '../../platform/tenancy.js';
import { isEmail, STAFF, type PasswordAccount } from '../accounts/account.js';

/** The staff member whose email (any case) or phone number is `username`, active or not. */
export function findStaffByUsername(scope: TenantScope, username: string) {
  const value = username.trim();
  const query = scope.selectFrom('staff').selectAll();
  return (isEmail(value)
    ? query.where((eb) => eb(eb.fn('lower', ['email']), '=', value.toLowerCase()))
    : query.where('phone_number', '=', value)
  ).executeTakeFirst();
}

/**
 * Staff accounts, as the password rules shared with clients see them
 * (`server/domain/accounts/passwords.ts`): their own lockout and reset buckets and reset codes.
 */
export const staffAccounts: PasswordAccount = {
  ...STAFF,
  bucketPrefix: 'staff-',
  noun: 'staff account',
  resetCode: { table: 'password_reset_codes', owner: 'staff_id', purpose: 'staff-password-reset' },
  findByUsername: findStaffByUsername,
};

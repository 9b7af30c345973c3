import { CODE_TTL_MS, claimCodeAttempt, codeMatches, hashCode, newCode } from '../../platform/auth/one-time-codes.js';
import type { HandlerContext } from '../../platform/context.js';
import type { ApiError } from '../../platform/errors.js';
import type { NamedTemplate } from '../../platform/notifier.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';

/**
 * One-time codes sent to an account (a password reset, proving a client's email or phone number):
 * issuing one retires the earlier ones, and spending one takes a try before the comparison, then
 * uses it up with the change it allows. A code belongs to its owner: the client or staff member
 * the kind's `owner` column names.
 */

/** What a code is for: its table, whose it is (the owner column), the purpose its hash is bound to and, to verify a contact, its channel. */
export type CodeKind =
  | { table: 'password_reset_codes'; owner: 'client_id'; purpose: 'password-reset' }
  | { table: 'password_reset_codes'; owner: 'staff_id'; purpose: 'staff-password-reset' }
  | { table: 'verification_codes'; owner: 'client_id'; purpose: `verify-${'email' | 'phone'}`; channel: 'email' | 'phone' }
  | { table: 'verification_codes'; owner: 'staff_id'; purpose: `staff-contact-${'email' | 'phone'}`; channel: 'email' | 'phone' };

export const verificationCode = (channel: 'email' | 'phone'): CodeKind => ({ table: 'verification_codes', owner: 'client_id', purpose: `verify-${channel}`, channel });
/** A new e-mail or phone number someone else set for a staff member, which waits for the member to confirm it. */
export const staffContactCode = (channel: 'email' | 'phone'): CodeKind => ({ table: 'verification_codes', owner: 'staff_id', purpose: `staff-contact-${channel}`, channel });

const channelOf = (kind: CodeKind) => (kind.table === 'verification_codes' ? kind.channel : undefined);

/** Marks the owner's live codes of this kind used, so none of them works any more. */
export async function retireCodes(scope: TenantScope, ownerId: string, kind: CodeKind, now: Date) {
  const channel = channelOf(kind);
  // Both code tables have the same columns; Kysely is told the verification table's for typing.
  await scope.updateTable(kind.table as 'verification_codes').set({ consumed_at: now })
    .where(kind.owner as 'client_id', '=', ownerId)
    .$if(channel !== undefined, (qb) => qb.where('channel', '=', channel!))
    .where('consumed_at', 'is', null).execute();
}

/** Where a code goes and in which words (the template's `{{code}}` is the code issued). */
export interface CodeMessage {
  channel: 'email' | 'sms';
  recipient: string;
  template: NamedTemplate;
  vars?: Record<string, string>;
}

/**
 * Replaces any earlier code of this kind with a new one and sends it as `message` (one or several: the same code by email and SMS), in one
 * transaction. `target` is the contact a verification code proves.
 */
export async function issueCode(
  ctx: Pick<HandlerContext, 'config' | 'notifier' | 'scope'>, ownerId: string, kind: CodeKind, now: Date, message: CodeMessage | CodeMessage[], target?: string,
): Promise<void> {
  const code = newCode();
  await ctx.scope.transaction(async (scope) => {
    await retireCodes(scope, ownerId, kind, now);
    const hashed = { code_hash: hashCode(ctx.config.jwtSecret, kind.purpose, ownerId, code), expires_at: new Date(now.getTime() + CODE_TTL_MS) };
    if (kind.table === 'verification_codes') {
      const owner = kind.owner === 'staff_id' ? { client_id: null, staff_id: ownerId } : { client_id: ownerId };
      await scope.insertInto('verification_codes', { ...owner, channel: kind.channel, target: target!, ...hashed }).execute();
    } else {
      await scope.insertInto('password_reset_codes', { ...(kind.owner === 'staff_id' ? { staff_id: ownerId } : { client_id: ownerId }), ...hashed }).execute();
    }
    for (const one of Array.isArray(message) ? message : [message]) {
      await ctx.notifier.send(scope, {
        channel: one.channel, recipient: one.recipient, template: one.template,
        vars: { ...one.vars, code }, owner: { kind: kind.owner === 'staff_id' ? 'staff' : 'client', id: ownerId },
      });
    }
  });
}

/** Takes one try of the owner's newest live code and compares it; `invalid()` when it is missing or wrong. */
export async function tryCode(ctx: Pick<HandlerContext, 'config' | 'scope'>, ownerId: string, kind: CodeKind, code: string, now: Date, invalid: () => ApiError) {
  const attempt = await claimCodeAttempt(ctx.scope, kind.table, { column: kind.owner, id: ownerId }, now, channelOf(kind));
  if (!attempt || !codeMatches(ctx.config.jwtSecret, kind.purpose, ownerId, code, attempt.code_hash)) throw invalid();
  return attempt;
}

/** Uses up a code that matched; `invalid()` if a parallel request used it first. */
export async function spendCode(scope: TransactionScope, kind: CodeKind, attemptId: string, now: Date, invalid: () => ApiError) {
  const spent = await scope.updateTable(kind.table as 'verification_codes').set({ consumed_at: now })
    .where('id', '=', attemptId).where('consumed_at', 'is', null).executeTakeFirst();
  if (spent.numUpdatedRows === 0n) throw invalid();
}

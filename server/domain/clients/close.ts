import { credentialTag } from '../../platform/auth/credential-cache.js';
import { sql } from 'kysely';
import type { components } from '../../../generated/api.js';
import { verifyPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { discardStored } from '../documents/store.js';
import { endSessionsOf } from '../accounts/session.js';
import { emit } from '../events/catalogue.js';
import { lockedClient } from './events.js';

/**
 * Closes an account: it can no longer log in, its personal data is erased and its own records
 * (documents, addresses, notifications, codes, cart) removed. The row itself stays, with its id,
 * type, country and dates, so the policies, invoices and claims it is party to remain whole.
 * `client.deactivated` by the client, `previous` only `{isActive: true}`: the personal data erased
 * is not kept in the event either.
 */
export async function closeAccount(ctx: Pick<HandlerContext, 'clock' | 'credentials' | 'scope' | 'storage' | 'reactions' | 'eventSnapshots'>, clientId: string): Promise<void> {
  const now = ctx.clock.now();
  const documentKeys = await ctx.scope.transaction(async (scope) => {
    const { is_active: wasActive } = await lockedClient(scope, clientId);
    const documents = await scope.deleteFrom('documents').where('client_id', '=', clientId).returning('storage_key').execute();
    for (const table of ['delivery_addresses', 'notifications', 'verification_codes', 'password_reset_codes', 'cart_items'] as const) {
      await scope.deleteFrom(table).where('client_id', '=', clientId).execute();
    }
    await scope.updateTable('clients').set({
      email: null, phone_number: null, password_hash: null, firebase_uid: null,
      first_name: null, last_name: null, other_names: null, title: null, gender: null, date_of_birth: null,
      identification_card: JSON.stringify(null), company_name: null, date_of_incorporation: null,
      contact_persons: JSON.stringify([]), city: null, region: null, digital_address: null, address: null,
      industry: null, notes: null, profile_image: null, taxpayer_identification_number: null,
      email_verified_at: null, phone_verified_at: null,
      is_active: false, deleted_at: now, updated_at: now,
      // Every token the client holds stops working.
      session_version: sql`session_version + 1`,
    }).where('id', '=', clientId).execute();
    await endSessionsOf(scope, { kind: 'client', id: clientId }, 'DEACTIVATED', now);
    if (wasActive) {
      await emit(ctx, scope, { by: 'client', id: clientId }, { type: 'client.deactivated', object: { type: 'client', id: clientId }, data: {} }, now,
        { previous: { isActive: true } });
    }
    return documents.map((document) => document.storage_key);
  });
  ctx.credentials.forget(credentialTag.client(clientId));
  // The bytes go once the rows are gone for good; a leftover object is unreachable, not exposed.
  if (documentKeys.length) await discardStored(ctx, documentKeys);
}

/** A client closing its own account proves it with its password, typed twice. */
export async function closeOwnAccount(ctx: HandlerContext, clientId: string, body: components['schemas']['DeleteAccountRequest']): Promise<void> {
  const { password, passwordConfirm } = body;
  if (password !== passwordConfirm) throw badRequest('body.passwordConfirm must equal body.password');
  const client = await ctx.scope.selectFrom('clients').select('password_hash').where('id', '=', clientId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(client.password_hash, password))) {
    throw badRequest("body.password is not the account's password", 'INVALID_PASSWORD');
  }
  await closeAccount(ctx, clientId);
}

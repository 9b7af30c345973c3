import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import type { components } from '../../../generated/api.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext } from '../../platform/context.js';
import type { ClientRow, NewClient as NewClientRow } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/errors.js';
import { consume } from '../../platform/rate-limit.js';
import type { StateActor } from '../states/policy.js';
import { allClientColumns } from './fields.js';
import { checkClientFields, checkContactFree, contactConflict } from './rules.js';
import { notifyClient } from '../accounts/notify.js';
import { emit } from '../events/catalogue.js';

type SignUpRequest = components['schemas']['SignUpRequest'];
type WithoutPassword<B> = B extends unknown ? Omit<B, 'password'> & { password?: string } : never;

/** A new client's fields: a sign-up body, or staff's, without a password (the client sets it with the code it is sent). */
export type NewClient = WithoutPassword<SignUpRequest>;

/** Who opened an account (the client itself, or staff: its createdBy) and the staff member it is credited to, if any. */
export interface ClientOrigin {
  createdBy: StateActor;
  originatingStaffId?: string | null;
}

/** The clients row of a new client: every field as sent or null (`fields.ts`), and where it came from. */
function newClientRow({ password: _password, ...fields }: NewClient, passwordHash: string | null, origin: ClientOrigin): NewClientRow {
  return {
    ...allClientColumns(fields),
    password_hash: passwordHash,
    created_by_staff_id: origin.createdBy.by === 'staff' ? origin.createdBy.id : null,
    // Whoever opens an account for a client chose where its set-up code goes: a way into it.
    credentials_set_by_staff_id: origin.createdBy.by === 'staff' ? origin.createdBy.id : null,
    originating_staff_id: origin.originatingStaffId ?? null,
  } as NewClientRow;
}

/**
 * Opens an individual or corporate client account: a login username (email or phone number) free
 * in the tenant, fields that make sense, and a welcome told to the client and `client.created`
 * (by the client itself, or the staff member who opened it) in the same transaction.
 */
export async function createClient(ctx: HandlerContext, fields: NewClient, origin: ClientOrigin): Promise<ClientRow> {
  if (!fields.email && !fields.phoneNumber) throw badRequest('body.email or body.phoneNumber is required (either is a login username)');
  await checkClientFields(ctx, fields);
  const passwordHash = fields.password === undefined ? null : await hashPassword(fields.password);

  return ctx.scope.transaction(async (scope) => {
    await checkContactFree(scope, fields);
    const row = await scope.insertInto('clients', newClientRow(fields, passwordHash, origin))
      .returningAll().executeTakeFirstOrThrow().catch(contactConflict);
    const name = fields.type === 'INDIVIDUAL' ? fields.firstName : fields.companyName;
    await notifyClient(ctx, scope, row, {
      title: `Welcome to ${ctx.tenant.name}`,
      body: `Hello ${name}, your ${ctx.tenant.name} account is ready.`,
      message: { template: MESSAGE_TEMPLATES.welcome },
    });
    const actor = origin.createdBy.by === 'staff' ? origin.createdBy : { by: 'client' as const, id: row.id };
    await emit(ctx, scope, actor, { type: 'client.created', object: { type: 'client', id: row.id }, data: {} }, ctx.clock.now());
    return row;
  });
}

/**
 * A client signing itself up from an app: limited per caller address, so nobody learns at speed
 * which emails and phone numbers have accounts (409 EMAIL_TAKEN) or fills the tenant with accounts.
 */
export async function signUpClient(ctx: HandlerContext, fields: NewClient, ip: string): Promise<ClientRow> {
  await consume(ctx.db, `signup:address:${ctx.tenant.id}:${ip}`, { max: ctx.config.signupsPerAddressPerHour, windowSeconds: 3600 }, ctx.clock.now());
  return createClient(ctx, fields, { createdBy: { by: 'client', id: null } });
}

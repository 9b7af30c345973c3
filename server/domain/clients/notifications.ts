import type { Services } from '../../platform/context.js';
import type { ClientRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { notifyAccount, type AccountEvent } from '../accounts/notify.js';
import { CLIENT } from './account.js';

/** Something that happened to a client, told in the app and, when it matters, by email or SMS. */
export type ClientEvent = AccountEvent;

/**
 * The one way domain events reach clients (signup, password changes, policies, payments, claims):
 * an in-app notification and, if asked, an outbox message, both in the caller's transaction
 * (`notifyAccount`, which staff notices go through too).
 */
export function notifyClient(
  services: Pick<Services, 'notifier'>,
  scope: TenantScope,
  /** The client, or its id when the caller has not read its contacts. */
  recipient: Pick<ClientRow, 'id' | 'email' | 'phone_number'> | string,
  event: ClientEvent,
): Promise<void> {
  return notifyAccount(services, scope, CLIENT, recipient, event);
}

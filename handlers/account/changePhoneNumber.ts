import type { Handler } from '../../server/platform/handler-types.js';
import { clientId } from '../../server/platform/actor.js';
import { changeContact } from '../../server/domain/clients/change-contact.js';

/** Replaces the account's phone number (the old one must match); it needs verifying again. */
export const changePhoneNumber: Handler<'changePhoneNumber'> = async (ctx, req) =>
  ({ data: await changeContact(ctx, clientId(ctx), 'phone', req.body.oldPhoneNumber, req.body.newPhoneNumber) });

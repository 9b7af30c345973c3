import type { Handler } from '../../server/platform/handler-types.js';
import { clientId } from '../../server/platform/actor.js';
import { changeContact } from '../../server/domain/clients/change-contact.js';

/** Replaces the account's email (the old one must match); it needs verifying again. */
export const changeEmail: Handler<'changeEmail'> = async (ctx, req) =>
  ({ data: await changeContact(ctx, clientId(ctx), 'email', req.body.oldEmail, req.body.newEmail) });

import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { verifyContact } from '../../server/domain/clients/verification.js';

/** Confirms the email or phone number a code was sent to, if it is still the account's. */
export const verifyAccount: Handler<'verifyAccount'> = async (ctx, req) =>
  ({ data: await verifyContact(ctx, clientId(ctx), req.body.type, req.body.verificationCode) });

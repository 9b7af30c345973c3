import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { sendContactCode } from '../../server/domain/clients/verification.js';

/** Sends a code to the account's current email or phone number, replacing any earlier one. */
export const sendVerificationCode: Handler<'sendVerificationCode'> = async (ctx, req) => {
  const sentTo = await sendContactCode(ctx, clientId(ctx), req.body.type);
  return { message: `A verification code was sent to your ${sentTo}` };
};

import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { resendSetUpCode } from '../../server/domain/clients/staff-clients.js';

/** Sends a client within the caller's reach a new code to set its own password with. */
export const sendClientSetUpCode: Handler<'sendClientSetUpCode'> = async (ctx, req) => {
  const channel = await resendSetUpCode(ctx, staffActor(ctx), req.params.id);
  return { message: `Set-up code sent by ${channel === 'email' ? 'email' : 'SMS'}` };
};

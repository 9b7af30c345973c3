import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { confirmContactChange } from '../../server/domain/staff/members.js';

/** The signed-in staff member confirms the new e-mail or phone number a manager set for them. */
export const confirmStaffContactChange: Handler<'confirmStaffContactChange'> = async (ctx, req) => ({
  data: await confirmContactChange(ctx, staffId(ctx), req.body.channel, req.body.code),
});

import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { fileClaim } from '../../server/domain/claims/file.js';
import { loadClaim } from '../../server/domain/claims/view.js';

/** Makes a claim on one of the client's policies, ACTIVE in REVIEW, and answers it. */
export const createClaim: Handler<'createClaim'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const id = await fileClaim(ctx, owner, req.body, { by: 'client', id: owner });
  return { data: await loadClaim(ctx.scope, id, owner) };
};

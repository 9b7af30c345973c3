import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { issueRenewal } from '../../server/domain/policies/renew.js';

/** Renews one of the signed-in client's policies: a RENEWAL policy for the next term, priced again. */
export const renewPolicy: Handler<'renewPolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await issueRenewal(ctx, owner, req.params.id, req.body ?? {}, { by: 'client', id: owner }) };
};

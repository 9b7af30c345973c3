import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { branchPage } from '../../server/domain/staff/organisation.js';

/** The branches the caller reaches, a page at a time. */
export const listBranches: Handler<'listBranches'> = async (ctx, req) => branchPage(ctx.scope, staffActor(ctx), req.query);

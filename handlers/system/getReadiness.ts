import { ApiError } from '../../server/platform/errors.js';
import { apiVersion } from '../../server/platform/openapi.js';
import { checkReadiness } from '../../server/platform/readiness.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** How soon a load balancer should ask again after a 503. */
const RETRY_AFTER_SECONDS = 5;

/** Ready when every check is ok; else 503 NOT_READY naming the failing checks, with every check's finding and Retry-After. */
export const getReadiness: Handler<'getReadiness'> = async (ctx) => {
  const { ready, checks } = await checkReadiness(ctx);
  if (!ready) {
    const failing = Object.entries(checks).filter(([, check]) => check.status !== 'ok').map(([name]) => name);
    throw new ApiError(503, 'NOT_READY', `Not ready: ${failing.join(', ')}`, { 'retry-after': String(RETRY_AFTER_SECONDS) }, undefined, { checks });
  }
  return { status: 'ready', version: apiVersion(), checks };
};

import { routeNotFound } from '../../server/platform/errors.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { API_PREFIX } from '../../server/platform/openapi.js';

/** This instance's metrics in Prometheus's text format; routed only while metrics are on (METRICS_TOKEN). */
export const getMetrics: Handler<'getMetrics'> = async (ctx) => {
  if (!ctx.metrics) throw routeNotFound('GET', `${API_PREFIX}/metrics`);
  const { contentType, body } = await ctx.metrics.exposition();
  return { kind: 'file', contentType, body: Buffer.from(body), disposition: 'inline' };
};

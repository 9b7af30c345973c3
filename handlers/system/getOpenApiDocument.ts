import type { Handler } from '../../server/platform/handler-types.js';

/**
 * The bundled contract, as SDK generators and the docs site read it, with its examples dated from
 * the day the server started (made on the first request, `servedContract`).
 */
export const getOpenApiDocument: Handler<'getOpenApiDocument'> = async (ctx) => ctx.servedContract() as any;

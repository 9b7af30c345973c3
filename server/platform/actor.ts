import type { HandlerContext } from './context.js';

/** The signed-in client's id; the route's security already required a client token. */
export function clientId(ctx: HandlerContext): string {
  if (ctx.actor.kind !== 'client') throw new Error('route without bearerAuth reached a client-only handler');
  return ctx.actor.clientId;
}

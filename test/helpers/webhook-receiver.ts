import Fastify, { type FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { components } from '../../generated/api.js';

/** One delivery as the receiver got it, and whether it verified (with which of the secrets it was given). */
export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The body as the contract types it (`Event`). */
  event: components['schemas']['Event'] & { data: { object: any } };
  /** The secrets (by position in `secrets`) the delivery verified with, as the Standard Webhooks library checks it. */
  verifiedWith: number[];
}

/**
 * An integrator's webhook receiver on 127.0.0.1: verifies every delivery with the `standardwebhooks`
 * library exactly as an integrator would, keeps what it got, and answers the statuses queued in
 * `answers` (200 once they run out).
 */
export async function webhookReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  let secrets: string[] = [];
  const app: FastifyInstance = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/hooks', async (request, reply) => {
    const body = request.body as string;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const verifiedWith = secrets.flatMap((secret, index) => {
      try { new Webhook(secret).verify(body, headers); return [index]; } catch { return []; }
    });
    received.push({ headers, body, event: JSON.parse(body), verifiedWith });
    const status = answers.shift() ?? 200;
    return reply.code(status).send(status < 300 ? 'ok' : `failing with ${status}`);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    answers,
    /** The secrets deliveries are verified with (what the integrator keeps). */
    trust(...keys: string[]) { secrets = keys; },
    close: () => app.close(),
  };
}

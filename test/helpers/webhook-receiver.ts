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
  /** When it arrived (Date.now()). */
  receivedAt: number;
}

/** A request the receiver keeps waiting: `arrival` answers it once it has come, `release` sends the answer. */
interface Hold { arrived: (got: Received) => void; released: Promise<number> }

/**
 * An integrator's webhook receiver on 127.0.0.1: verifies every delivery with the `standardwebhooks`
 * library exactly as an integrator would, keeps what it got, and answers the statuses queued in
 * `answers` (200 once they run out); a request `holdNext` asked for is answered only when released.
 */
export async function webhookReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const holds: Hold[] = [];
  const waiters: Array<{ match: (got: Received) => boolean; found: (got: Received) => void }> = [];
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
    const got: Received = { headers, body, event: JSON.parse(body), verifiedWith, receivedAt: Date.now() };
    received.push(got);
    for (const waiter of waiters.filter((w) => w.match(got))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.found(got);
    }
    const hold = holds.shift();
    if (hold) hold.arrived(got);
    const status = hold ? await hold.released : answers.shift() ?? 200;
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
    /** Keeps the next request waiting (its sender mid-delivery) until `release(status)`; `arrival` answers when it has come. */
    holdNext() {
      let arrived!: (got: Received) => void;
      let release!: (status: number) => void;
      const arrival = new Promise<Received>((resolve) => { arrived = resolve; });
      holds.push({ arrived, released: new Promise<number>((resolve) => { release = resolve; }) });
      return { arrival, release };
    },
    /** The first delivery `match` accepts: one received already, or the next to come. */
    whenReceived(match: (got: Received) => boolean): Promise<Received> {
      const got = received.find(match);
      return got ? Promise.resolve(got) : new Promise((found) => { waiters.push({ match, found }); });
    },
    close: () => app.close(),
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../server/app/app.js';
import { jobHandlers } from '../../server/app/jobs.js';
import { emit } from '../../server/domain/events/catalogue.js';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';
import { DEFAULT_LEASE_MS } from '../../server/platform/jobs/queue.js';
import { createWorker, type Worker } from '../../server/platform/jobs/worker.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { DELIVER_WEBHOOK_QUEUE } from '../../server/platform/webhooks/deliveries.js';
import { buyHomePolicy, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhook delivery with two API instances on one PostgreSQL database, as two `npm start` processes
 * would run: each with its own connection pool and its own worker polling the webhook queue.
 * Events made through both at once reach each endpoint exactly once (no worker sends a job another
 * holds), and an instance killed in the middle of a delivery loses nothing: once its lease has run
 * out (the clock moved), the other instance sends the delivery again and it succeeds.
 * PostgreSQL only: the embedded database is one process's, with one session (workers there are serial).
 */
const url = process.env.DATABASE_URL || undefined; // CI's embedded run sets it empty
const onPostgres = url ? describe : describe.skip;

let h: Harness;
let secondDb: DatabaseHandle;
let second: FastifyInstance;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let exec: string;
const PINGS_PER_ENDPOINT = 60;
const PAYMENTS = 8;

/** Instance 1 is the harness's app, instance 2 the other one (its own pool). */
const instances = () => [h.app, second] as const;
const call = (app: FastifyInstance, method: 'GET' | 'POST', path: string, payload?: object, token = exec) =>
  app.inject({ method, url: `/api/v1${path}`, headers: { 'api-key': h.apiKey, authorization: `Bearer ${token}` }, ...(payload && { payload }) });

/** The worker an instance runs (the webhook queue only), counting the jobs it ran. */
function workerOf(app: FastifyInstance, ran: number[], index: number, errors: string[]): Worker {
  const deliver = jobHandlers(app.services)[DELIVER_WEBHOOK_QUEUE];
  return createWorker({ db: app.services.db, clock: h.clock, intervalMs: 10,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: async (job, now) => { ran[index] += 1; await deliver(job, now); } },
    log: { error: (obj, msg) => { errors.push(`${msg}: ${JSON.stringify(obj)}`); } } });
}

/** Waits (bounded) until `done` answers true: the database's state is the signal, read every 25 ms. */
async function until(what: string, done: () => Promise<boolean>, withinMs = 120_000) {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not so within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

onPostgres('webhook delivery with two API instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    h = await createHarness();
    secondDb = await openDatabase({ databaseUrl: h.databaseUrl, dataDir: 'memory://', poolSize: 20 });
    second = await buildApp({ config: h.config, db: secondDb.db, clock: h.clock });
    await second.ready();
    exec = (await staffSession(h, 'exec')).token;
    receiver = await webhookReceiver();
  }, 600_000);
  afterAll(async () => {
    await receiver?.close();
    await second?.close();
    await secondDb?.close();
    await h?.close();
  });

  let endpoints: Array<{ id: string; secret: string }> = [];

  it('delivers every event exactly once per endpoint while both instances\' workers run at once', async () => {
    // Payments waiting for approval (made before the endpoints, so nothing of theirs is delivered).
    const client = await signUp(h);
    const productId = await onlineProductId(h, 'HOME');
    const payments: Array<{ id: string; invoiceId: string }> = [];
    for (let i = 0; i < PAYMENTS; i += 1) {
      const { invoiceId, amount } = await buyHomePolicy(h, client.token, productId, 0);
      const paid = await call(h.app, 'POST', '/client/transactions', { invoiceId, paymentMethod: 'CASH', amount }, client.token);
      expect(paid.statusCode).toBe(201);
      payments.push({ id: paid.json().data.id, invoiceId });
    }
    // Two endpoints taking every type, both at the receiver: a delivery says which by the secret it verifies with.
    for (const description of ['Accounting system', 'Core system']) {
      const made = await call(h.app, 'POST', '/staff/webhook-endpoints', { url: receiver.url, description });
      expect(made.statusCode).toBe(201);
      endpoints.push(made.json().data);
    }
    receiver.trust(...endpoints.map((e) => e.secret));
    // Every business event from here on goes to both endpoints (they take every type).
    const since = (await h.db.selectFrom('domain_events').select((eb) => eb.fn.max('created_at').as('last')).executeTakeFirst())?.last ?? new Date(0);

    const ran = [0, 0];
    const errors: string[] = [];
    const workers = instances().map((app, i) => workerOf(app, ran, i, errors));
    workers.forEach((w) => w.start());
    try {
      // Through both instances at once: test events to each endpoint, and the payments approved
      // (each one transaction.approved and invoice.paid, to both endpoints).
      const pings = Array.from({ length: PINGS_PER_ENDPOINT * 2 }, (_, i) => ({ app: instances()[i % 2], endpoint: endpoints[Math.floor(i / 2) % 2] }));
      const [pinged, approved] = await Promise.all([
        Promise.all(pings.map(async ({ app, endpoint }) => {
          const res = await call(app, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
          expect(res.statusCode).toBe(202);
          return { endpointId: endpoint.id, eventId: res.json().data.event.id as string };
        })),
        Promise.all(payments.map((p, i) => call(instances()[i % 2], 'POST', `/staff/transactions/${p.id}/approve`, { notes: 'Counted' }))),
      ]);
      expect(approved.map((r) => r.statusCode)).toEqual(payments.map(() => 200));
      // The approvals' events: each payment's transaction.approved and its invoice's invoice.paid, and
      // whatever else the approvals changed (the policies they paid for move state).
      const business = await h.db.selectFrom('domain_events').select(['id', 'type', 'object_id'])
        .where('tenant_id', '=', h.tenantId).where('type', '<>', 'webhookEndpoint.ping').where('created_at', '>', since).execute();
      const ofType = (type: string) => business.filter((e) => e.type === type).map((e) => e.object_id).sort();
      expect(ofType('transaction.approved')).toEqual(payments.map((p) => p.id).sort());
      expect(ofType('invoice.paid')).toEqual(payments.map((p) => p.invoiceId).sort());
      const expected = endpoints.map((e) => [...pinged.filter((p) => p.endpointId === e.id).map((p) => p.eventId), ...business.map((b) => b.id)].sort());
      expect(expected.map((ids) => ids.length)).toEqual([PINGS_PER_ENDPOINT + business.length, PINGS_PER_ENDPOINT + business.length]);

      const deliveries = () => h.db.selectFrom('webhook_deliveries').select(['id', 'endpoint_id', 'event_id', 'status', 'attempts'])
        .where('endpoint_id', 'in', endpoints.map((e) => e.id)).execute();
      await until('every delivery settled', async () => (await deliveries()).every((d) => d.status !== 'PENDING'));

      // Each endpoint was sent each of its events once: no webhook-id twice, none missing, every one verified.
      const got = endpoints.map((_, i) => receiver.received.filter((r) => r.verifiedWith.includes(i)).map((r) => r.headers['webhook-id']).sort());
      expect(got).toEqual(expected);
      expect(receiver.received.filter((r) => r.verifiedWith.length !== 1)).toEqual([]);
      expect(receiver.received).toHaveLength(expected[0].length + expected[1].length);
      // As the database has it: one delivery per event and endpoint, SUCCEEDED at its first attempt, one attempt row each.
      const rows = await deliveries();
      expect(endpoints.map((e) => rows.filter((d) => d.endpoint_id === e.id).map((d) => d.event_id).sort())).toEqual(expected);
      expect(rows.filter((d) => d.status !== 'SUCCEEDED' || d.attempts !== 1)).toEqual([]);
      const attempts = await h.db.selectFrom('webhook_attempts').select('delivery_id').where('delivery_id', 'in', rows.map((d) => d.id)).execute();
      expect(attempts).toHaveLength(rows.length);
      // Each delivery's job ran once, and both instances took a share of them.
      const jobs = await h.db.selectFrom('jobs').select(['attempts', 'done_at', 'failed_at']).where('queue', '=', DELIVER_WEBHOOK_QUEUE).execute();
      expect(jobs.filter((j) => j.attempts !== 1 || j.done_at === null || j.failed_at !== null)).toEqual([]);
      expect(jobs).toHaveLength(rows.length);
      expect(ran[0] + ran[1]).toBe(rows.length);
      expect(ran.every((n) => n > 0)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  }, 600_000);

  it('loses nothing when an instance is killed mid-delivery: after its lease the other instance sends it, and it succeeds', async () => {
    // Instance 1 as `npm start` runs it, in a process of its own on the same database, killed
    // (SIGKILL) while the receiver holds its request; instance 2 is the one left running.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-webhooks-'));
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/app/main.ts'], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: h.databaseUrl, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development',
        LOG_LEVEL: 'warn', JOB_POLL_INTERVAL_MS: '50' },
    });
    let output = '';
    const exited = new Promise<void>((resolve) => { child.once('exit', () => resolve()); });
    try {
      await new Promise<void>((resolve, reject) => {
        const seen = (chunk: Buffer) => { output += chunk; if (output.includes('listening on')) resolve(); };
        child.stdout!.on('data', seen);
        child.stderr!.on('data', seen);
        void exited.then(() => reject(new Error(`npm start ended before listening:\n${output}`)));
      });
      const held = receiver.holdNext();
      const [endpoint] = endpoints;
      const queued = await call(h.app, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
      expect(queued.statusCode).toBe(202);
      const { id: deliveryId, event: { id: eventId } } = queued.json().data;
      // The process's worker took the job and is sending it: the receiver has it and holds the answer.
      const arrived = await held.arrival;
      expect(arrived.headers['webhook-id']).toBe(eventId);
      const job = () => h.db.selectFrom('jobs').select(['locked_by', 'locked_until', 'attempts', 'done_at'])
        .where('queue', '=', DELIVER_WEBHOOK_QUEUE).where(sql<boolean>`payload->>'deliveryId' = ${deliveryId}`).executeTakeFirstOrThrow();
      expect(await job()).toMatchObject({ locked_by: expect.stringContaining(`:${child.pid}:`), attempts: 1, done_at: null });
      child.kill('SIGKILL');
      await exited;
      held.release(200); // to a connection already gone: the killed process never learns the answer

      const ran = [0, 0];
      const errors: string[] = [];
      const survivor = workerOf(second, ran, 1, errors);
      // While the lease lasts the job is not taken again (its worker might still be sending it).
      expect(await survivor.tick()).toBe(0);
      expect(receiver.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(1);
      const { locked_until: leaseEnd } = await job();
      const pastLease = leaseEnd!.getTime() - h.clock.now().getTime() + 1_000;
      h.clock.advance(pastLease);
      try {
        expect(await survivor.tick()).toBe(1);
      } finally {
        h.clock.advance(-pastLease);
      }
      // Sent again, the same webhook-id and body, signed with the endpoint's secret (checked at the
      // moved clock's timestamp: the library's window is real time); the survivor's attempt SUCCEEDED.
      const sends = receiver.received.filter((r) => r.headers['webhook-id'] === eventId);
      expect(sends.map((r) => r.body)).toEqual([arrived.body, arrived.body]);
      expect(sends[0].verifiedWith).toEqual([0]);
      const timestamp = new Date(Number(sends[1].headers['webhook-timestamp']) * 1000);
      expect(sends[1].headers['webhook-signature']).toBe(new Webhook(endpoint.secret).sign(eventId, timestamp, sends[1].body));
      expect(await job()).toMatchObject({ locked_by: null, attempts: 2, done_at: expect.any(Date) });
      const delivery = await h.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('id', '=', deliveryId).executeTakeFirstOrThrow();
      expect(delivery).toEqual({ status: 'SUCCEEDED', attempts: 1 });
      const listed = (await call(second, 'GET', `/staff/webhook-endpoints/${endpoint.id}/deliveries`)).json().data
        .find((d: { id: string }) => d.id === deliveryId);
      expect(listed).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1, attempts: [{ statusCode: 200, error: null }] });
      expect(ran).toEqual([0, 1]);
      expect(errors).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('keeps a delivery that outlasts its lease its worker\'s: the heartbeat renews the lease, and the other instance does not send it too', async () => {
    // Instance 1 is sending a delivery (the receiver holds its request) past the lease its claim
    // took (the clock moved beyond it): its heartbeat renews the lease, so instance 2, polling
    // meanwhile, leaves the job alone. Sent once, SUCCEEDED at its first attempt.
    const [endpoint] = endpoints;
    const held = receiver.holdNext();
    const queued = await call(h.app, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    const { id: deliveryId, event: { id: eventId } } = queued.json().data;
    const job = () => h.db.selectFrom('jobs').select(['locked_until', 'attempts', 'done_at'])
      .where('queue', '=', DELIVER_WEBHOOK_QUEUE).where(sql<boolean>`payload->>'deliveryId' = ${deliveryId}`).executeTakeFirstOrThrow();
    const ran = [0, 0];
    const errors: string[] = [];
    const deliver = jobHandlers(h.app.services)[DELIVER_WEBHOOK_QUEUE];
    const first = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, heartbeatMs: 20, handlers: {
      async [DELIVER_WEBHOOK_QUEUE](job, at) { ran[0] += 1; await deliver(job, at); },
    } });
    const sending = first.tick();
    await held.arrival;
    const pastLease = DEFAULT_LEASE_MS + 1_000;
    h.clock.advance(pastLease);
    try {
      await until('the lease renewed beyond the moved clock', async () => (await job()).locked_until!.getTime() > h.clock.now().getTime());
      expect(await workerOf(second, ran, 1, errors).tick()).toBe(0);
      held.release(200);
      expect(await sending).toBe(1);
    } finally {
      h.clock.advance(-pastLease);
    }
    expect(ran).toEqual([1, 0]);
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(1);
    expect(await job()).toMatchObject({ attempts: 1, done_at: expect.any(Date), locked_until: null });
    const delivery = await h.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('id', '=', deliveryId).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'SUCCEEDED', attempts: 1 });
    expect(errors).toEqual([]);
  }, 120_000);

  it('records a delivery\'s attempt without waiting for business transactions still open that queued deliveries to the same endpoint', async () => {
    // A change in progress on instance 1: its transaction has recorded an event for the endpoint
    // (its delivery row refers to the endpoint's row) and has not committed yet. Instance 2 sends
    // another delivery to that endpoint meanwhile: recording the attempt must not wait for the
    // change to commit (under a stream of changes it would never catch up: each waits for the last).
    const [endpoint] = endpoints;
    const queued = await call(h.app, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    const { id: deliveryId } = queued.json().data;
    let commit!: () => void;
    let recorded!: () => void;
    const inProgress = new Promise<void>((resolve) => { recorded = resolve; });
    const change = new TenantScope(h.db, h.tenantId).transaction(async (scope) => {
      await emit(h.app.services, scope, { by: 'staff', id: sandboxStaff('exec').id },
        { type: 'webhookEndpoint.ping', object: { type: 'webhookEndpoint', id: endpoint.id }, data: {} }, h.clock.now(), { onlyTo: endpoint.id });
      recorded();
      await new Promise<void>((resolve) => { commit = resolve; });
    });
    await inProgress;
    const errors: string[] = [];
    const delivering = workerOf(second, [0, 0], 1, errors).tick().then((ran) => ({ ran }));
    // Either the tick ends, or a session of this database waits on a lock (read from pg_stat_activity).
    const lockWait = (async () => {
      for (;;) {
        const { rows } = await sql<{ query: string }>`select query from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`.execute(h.db);
        if (rows.length) return { waiting: rows.map((r) => r.query.replace(/\s+/g, ' ').slice(0, 120)) };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let outcome: { ran: number } | { waiting: string[] };
    try {
      outcome = await Promise.race([delivering, lockWait]);
    } finally {
      commit();
      await change;
    }
    expect(outcome).toEqual({ ran: 1 });
    expect(await h.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('id', '=', deliveryId).executeTakeFirstOrThrow())
      .toEqual({ status: 'SUCCEEDED', attempts: 1 });
    expect(errors).toEqual([]);
  }, 120_000);
});

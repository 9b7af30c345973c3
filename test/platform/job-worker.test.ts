import { sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { ChangeFeed, ChangeListener, Db } from '../../server/platform/db/database.js';
import { claim, enqueue, JOBS_CHANNEL } from '../../server/platform/jobs/queue.js';
import { createWorker, type JobHandler, type Worker } from '../../server/platform/jobs/worker.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * The job worker against a real database (embedded, or PostgreSQL with DATABASE_URL): woken by the
 * database's notice when jobs are committed, its polls never overlapping, a running job's lease
 * kept by its heartbeat, no claimed job left waiting behind another. Every wait is for a signal
 * (a handler called, a notice relayed, a row's state), bounded so a regression fails, never hangs.
 */
let h: Harness;
beforeAll(async () => { h = await createHarness(); }, 600_000);
afterAll(async () => { await h?.close(); });

const HOUR = 3_600_000;
let queueCount = 0;
const newQueue = (name: string) => `test.${name}.${(queueCount += 1)}.${Math.random().toString(36).slice(2, 8)}`;
const jobRow = (id: string) => h.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A promise and the functions that settle it: the test's signals. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/** `promise`, or a failure naming `what` once `withinMs` have passed: a wait for an event, bounded. */
async function within<T>(what: string, promise: Promise<T>, withinMs = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`not within ${withinMs} ms: ${what}`)), withinMs); });
  try { return await Promise.race([promise, late]); } finally { clearTimeout(timer); }
}

/** Waits (bounded) until `done` answers true: a row's state is the signal, read every 20 ms. */
async function until(what: string, done: () => Promise<boolean>, withinMs = 20_000) {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not so within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The database's change feed, relaying what it hears and telling the test: notices on the jobs channel, listening. */
function watchedFeed(feed: ChangeFeed) {
  const notices: string[] = [];
  const listening = signal();
  let noticed = signal();
  const watched: ChangeFeed = {
    listen: (channel, listener) => feed.listen(channel, {
      notice(payload) { if (channel === JOBS_CHANNEL) { notices.push(payload); noticed.resolve(); noticed = signal(); } listener.notice(payload); },
      listening(on) { if (on) listening.resolve(); listener.listening(on); },
    }),
  };
  return { feed: watched, notices, listening: listening.promise, nextNotice: () => noticed.promise };
}

/** A feed the test drives: it says when notices flow and sends them. */
function drivenFeed() {
  let listener: ChangeListener | undefined;
  const listened = signal();
  const feed: ChangeFeed = {
    async listen(channel, given) {
      expect(channel).toBe(JOBS_CHANNEL);
      listener = given;
      listened.resolve();
      return async () => { given.listening(false); };
    },
  };
  return { feed, listened: listened.promise, notice: () => listener!.notice(''), listening: (on: boolean) => listener!.listening(on) };
}

/**
 * `h.db` with the worker's claims counted and held: each claim (the queue's only UPDATE that
 * returns rows) is counted as it is sent, and its answer waits while the gate is shut.
 */
function gatedDb() {
  const state = { claimsSent: 0, claimsAnswered: 0, gate: Promise.resolve(), open: () => {} };
  const claims = new Set<unknown>();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (node.kind === 'UpdateQueryNode' && (node as Extract<RootOperationNode, { kind: 'UpdateQueryNode' }>).returning) {
        claims.add(queryId);
        state.claimsSent += 1;
      }
      return node;
    },
    async transformResult({ result, queryId }) {
      if (!claims.delete(queryId)) return result;
      await state.gate;
      state.claimsAnswered += 1;
      return result;
    },
  };
  return {
    db: h.db.withPlugin(plugin) as Db,
    state,
    /** Holds every claim's answer until `open()`. */
    shut() { const gate = signal(); state.gate = gate.promise; state.open = () => gate.resolve(); },
  };
}

/** A handler that records each job it runs and tells the test; `hold` keeps a job running until released. */
function recorder(hold: (jobId: string) => Promise<void> = async () => {}) {
  const ran: string[] = [];
  const waiting = new Map<number, () => void>();
  const handler: JobHandler = async (job) => {
    ran.push(job.id);
    waiting.get(ran.length)?.();
    await hold(job.id);
  };
  /** Resolves once `count` jobs have begun. */
  const begun = (count: number) => (ran.length >= count ? Promise.resolve() : new Promise<void>((resolve) => { waiting.set(count, resolve); }));
  return { ran, handler, begun };
}

describe('the job worker', () => {
  const workers: Worker[] = [];
  const worker = (options: Parameters<typeof createWorker>[0]) => { const w = createWorker(options); workers.push(w); return w; };
  afterEach(async () => { await Promise.all(workers.splice(0).map((w) => w.stop())); });
  /** A worker of a queue of its own on the database's change feed (watched), started and listening; its timed poll an hour away. */
  const listeningWorker = async (name: string) => {
    const queue = newQueue(name);
    const watched = watchedFeed(h.changes);
    const { ran, handler, begun } = recorder();
    worker({ db: h.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, changes: watched.feed }).start();
    await within('the worker listening', watched.listening);
    return { queue, watched, ran, begun };
  };

  it('runs a job committed in a transaction at once, woken by the database\'s notice, with no timed poll to come for an hour', async () => {
    const { queue, watched, ran, begun } = await listeningWorker('woken');
    // Its first poll has run (a job it found then has run); from here only a notice wakes it.
    const first = await enqueue(h.db, { queue }, h.clock.now());
    await within('the first job run', begun(1));
    const noticed = watched.nextNotice();
    const second = await h.db.transaction().execute(async (trx) => {
      const job = await enqueue(trx, { queue, payload: { n: 2 } }, h.clock.now());
      await sql`select 1`.execute(trx);
      return job;
    });
    await within('the notice of the committed job', noticed);
    await within('the committed job run, woken by its notice', begun(2));
    expect(ran).toEqual([first.id, second.id]);
    expect(watched.notices.every((payload) => payload === '')).toBe(true);
  });

  it('is woken by jobs a data-modifying CTE inserts (a business event\'s deliveries), and not by an insert that inserted nothing', async () => {
    const { queue, watched, ran, begun } = await listeningWorker('cte');
    const now = h.clock.now();
    // Deduped: the second statement inserts no row, and sends no notice.
    await enqueue(h.db, { queue, dedupeKey: `${queue}@once` }, now);
    await within('the deduped job run', begun(1));
    const before = watched.notices.length;
    expect((await enqueue(h.db, { queue, dedupeKey: `${queue}@once` }, now)).created).toBe(false);
    // As insertPublicEvents does: the jobs are inserted by a CTE of a statement about another table.
    const noticed = watched.nextNotice();
    const { rows } = await sql<{ id: string }>`with made as (
        insert into jobs (queue, payload, run_at, created_at, updated_at)
        select ${queue}, jsonb_build_object('n', n), ${now}, ${now}, ${now} from generate_series(1, 3) as n returning id)
      select id from made`.execute(h.db);
    await within('the notice of the CTE\'s jobs', noticed);
    await within('the three jobs run', begun(4));
    expect(ran.slice(1).sort()).toEqual(rows.map((r) => r.id).sort());
    // One notice for the CTE's statement, none for the insert that inserted nothing.
    expect(watched.notices.length - before).toBe(1);
  });

  it('never polls twice at once: notices during a poll make one more poll, right after it', async () => {
    const queue = newQueue('coalesce');
    const driven = drivenFeed();
    const gated = gatedDb();
    const { handler, begun } = recorder();
    for (let i = 0; i < 3; i += 1) await enqueue(h.db, { queue, payload: { i } }, h.clock.now());
    // The first poll's claim answers only when the gate opens (on PGlite it holds the one session
    // meanwhile: the test sends nothing to the database until then).
    gated.shut();
    const w = worker({ db: gated.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, changes: driven.feed });
    w.start();
    await within('the worker listening', driven.listened);
    driven.listening(true);
    await until('the first poll\'s claim sent', async () => gated.state.claimsSent === 1);
    for (let i = 0; i < 20; i += 1) driven.notice();
    expect(gated.state.claimsSent).toBe(1);
    gated.state.open();
    await within('the three jobs run', begun(3));
    await until('one more poll, for the notices', async () => gated.state.claimsAnswered === 2);
    await w.stop();
    expect(gated.state).toMatchObject({ claimsSent: 2, claimsAnswered: 2 });
  });

  it('after a lost listener, polls at once when it listens again (notices missed meanwhile); a feed that fails leaves it polling on its timer', async () => {
    const queue = newQueue('relisten');
    const driven = drivenFeed();
    const { handler, begun } = recorder();
    const w = worker({ db: h.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, changes: driven.feed });
    w.start();
    await within('the worker listening', driven.listened);
    driven.listening(false);
    await enqueue(h.db, { queue }, h.clock.now()); // its notice lost with the connection
    driven.listening(true);
    await within('the job committed while not listening, run once listening again', begun(1));

    const other = newQueue('no-feed');
    const errors: string[] = [];
    const broken: ChangeFeed = { listen: async () => { throw new Error('the database refused LISTEN'); } };
    const polling = recorder();
    const fallback = worker({ db: h.db, clock: h.clock, handlers: { [other]: polling.handler }, intervalMs: 50, changes: broken,
      log: { error: (_obj, msg) => { errors.push(msg); }, warn: (_obj, msg) => { errors.push(msg); } } });
    fallback.start();
    await enqueue(h.db, { queue: other }, h.clock.now());
    await within('the job run by a timed poll', polling.begun(1));
    expect(errors).toEqual(['job worker: not listening for new jobs, polling only']);
  });

  (process.env.DATABASE_URL ? it : it.skip)('keeps working when its LISTEN connection is cut (PostgreSQL): listening again, it runs what was committed meanwhile', async () => {
    const queue = newQueue('cut');
    const watched = watchedFeed(h.changes);
    const { handler, begun } = recorder();
    const relistened = signal();
    let listens = 0;
    const feed: ChangeFeed = {
      listen: (channel, listener) => watched.feed.listen(channel, { ...listener, listening(on) { if (on && (listens += 1) > 1) relistened.resolve(); listener.listening(on); } }),
    };
    const w = worker({ db: h.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, changes: feed });
    w.start();
    await within('the worker listening', watched.listening);
    const cut = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and query = ${`listen "${JOBS_CHANNEL}"`}`.execute(h.db);
    expect(cut.rows.some((r) => r.ended)).toBe(true);
    await enqueue(h.db, { queue }, h.clock.now());
    await within('listening again', relistened.promise);
    await within('the job committed while cut off, run', begun(1));
  });

  it('runs a job that falls due later when it does, not at the next timed poll; and a crashed worker\'s job when its lease ends', async () => {
    const queue = newQueue('due');
    const { ran, handler, begun } = recorder();
    const w = worker({ db: h.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR });
    const now = h.clock.now();
    const later = await enqueue(h.db, { queue, runAt: new Date(now.getTime() + 300) }, now);
    // Held by a worker that died: its lease ends in 600 ms.
    const orphan = await enqueue(h.db, { queue, runAt: new Date(now.getTime() - 1) }, now);
    expect(await claim(h.db, { queues: [queue], workerId: 'crashed', leaseMs: 600 }, now)).toHaveLength(1);
    w.start();
    await within('the later job run when due', begun(1));
    const ranAt = h.clock.now().getTime();
    expect(ranAt).toBeGreaterThanOrEqual(now.getTime() + 300);
    await within('the crashed worker\'s job run when its lease ended', begun(2));
    expect(ran).toEqual([later.id, orphan.id]);
    await until('the crashed worker\'s job done', async () => (await jobRow(orphan.id)).done_at !== null);
    expect(await jobRow(orphan.id)).toMatchObject({ attempts: 2, locked_by: null });
  });

  it('keeps a running job\'s lease by its heartbeat: no other worker takes it, however long it runs', async () => {
    const queue = newQueue('heartbeat');
    h.clock.freeze();
    try {
      const release = signal();
      const { handler, begun } = recorder(() => release.promise);
      const w = worker({ db: h.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, leaseMs: 60_000, heartbeatMs: 20 });
      const { id } = await enqueue(h.db, { queue }, h.clock.now());
      const ticking = w.tick();
      await within('the job begun', begun(1));
      // Three times past two thirds of the lease (twice the lease in all): each time the heartbeat renews it.
      for (let round = 1; round <= 3; round += 1) {
        h.clock.advance(40_000);
        const renewedTo = h.clock.now().getTime() + 60_000;
        await until(`the lease renewed in round ${round}`, async () => (await jobRow(id)).locked_until?.getTime() === renewedTo);
        expect(await claim(h.db, { queues: [queue], workerId: 'other', limit: 10 }, h.clock.now())).toEqual([]);
      }
      release.resolve();
      expect(await ticking).toBe(1);
      expect(await jobRow(id)).toMatchObject({ attempts: 1, locked_by: null, locked_until: null, done_at: expect.any(Date) });
    } finally {
      h.clock.set(new Date().toISOString());
    }
  });

  it('claims only what it starts: a job that hangs holds one place, every other job runs around it, and a crash strands only it', async () => {
    const queue = newQueue('hang');
    const hung = signal();
    let hanging: string | undefined;
    const { ran, handler, begun } = recorder(async (jobId) => { if (jobId === hanging) await hung.promise; });
    const now = h.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) ids.push((await enqueue(h.db, { queue, payload: { i }, runAt: new Date(now.getTime() - 1000 + i) }, now)).id);
    [hanging] = ids;
    const w = worker({ db: h.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, batchSize: 3, leaseMs: 30_000, workerId: 'hangs' });
    w.start();
    await within('every job begun, the hanging one first', begun(8));
    expect(ran[0]).toBe(hanging);
    await until('every other job done', async () => (await h.db.selectFrom('jobs').select('id').where('queue', '=', queue).where('done_at', 'is', null).execute()).length === 1);
    // The worker dies here: what it holds is the hanging job alone, until its lease ends.
    const held = await h.db.selectFrom('jobs').select(['id', 'locked_by']).where('queue', '=', queue).where('locked_by', 'is not', null).execute();
    expect(held).toEqual([{ id: hanging, locked_by: 'hangs' }]);
    expect(await claim(h.db, { queues: [queue], workerId: 'next', limit: 10 }, h.clock.now())).toEqual([]);
    const taken = await claim(h.db, { queues: [queue], workerId: 'next', limit: 10 }, new Date(h.clock.now().getTime() + 31_000));
    expect(taken.map((j) => [j.id, j.attempts])).toEqual([[hanging, 2]]);
    hung.resolve();
  });

  it('stop() waits for every job running, and gives back, unstarted and with no attempt spent, what a claim in progress took', async () => {
    const queue = newQueue('stop');
    const release = signal();
    const { ran, handler, begun } = recorder(() => release.promise);
    const driven = drivenFeed();
    const gated = gatedDb();
    const w = worker({ db: gated.db, clock: h.clock, handlers: { [queue]: handler }, intervalMs: HOUR, workerId: 'stopping', changes: driven.feed });
    const running: string[] = [];
    for (let i = 0; i < 2; i += 1) running.push((await enqueue(h.db, { queue, payload: { i } }, h.clock.now())).id);
    w.start();
    await within('both jobs begun at once', begun(2));
    // A poll woken by a notice, its claim's answer held, when the stop comes: what it took goes back.
    // (No notice reaches the worker but the test's, and the gate shut, the test sends nothing to the
    // database: on PGlite the held claim holds the one session.)
    const late = await enqueue(h.db, { queue, payload: { late: true } }, h.clock.now());
    gated.shut();
    const sent = gated.state.claimsSent;
    driven.notice();
    await until('the poll\'s claim sent', async () => gated.state.claimsSent > sent);
    let stopped = false;
    const stopping = w.stop().then(() => { stopped = true; });
    gated.state.open();
    await until('the late job claimed, then given back', async () => gated.state.claimsAnswered > sent && (await jobRow(late.id)).locked_by === null);
    expect(stopped).toBe(false);
    release.resolve();
    await within('stop() answered once the jobs ended', stopping);
    expect([...ran].sort()).toEqual([...running].sort());
    for (const id of running) expect(await jobRow(id)).toMatchObject({ attempts: 1, done_at: expect.any(Date) });
    expect(await jobRow(late.id)).toMatchObject({ attempts: 0, locked_by: null, locked_until: null, done_at: null });
  });
});

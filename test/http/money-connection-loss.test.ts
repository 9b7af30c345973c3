import pg from 'pg';
import { sandboxProvider, type PaymentProvider } from '../../server/platform/payments/provider.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { onlineProductId, signUp } from '../helpers/clients.js';

/**
 * A database connection killed in the middle of a payment (pg_terminate_backend from a second
 * connection) leaves no partial rows, and a retry with the same Idempotency-Key completes.
 * PostgreSQL only: the embedded database has no second connection to kill it from.
 */
const url = process.env.DATABASE_URL || undefined; // CI's embedded run sets it empty
const onPostgres = url ? describe : describe.skip;

let h: Harness;
let token: string;
let killNext = false;
let killed = 0;

/** The sandbox provider, except that while `killNext` is set it first kills the connection of the payment calling it. */
function killingProvider(): PaymentProvider {
  const sandbox = sandboxProvider({ publicBaseUrl: 'http://localhost:3000', paymentWebhookSecret: 'connection-loss-test' });
  return {
    ...sandbox,
    async startCheckout(payment) {
      if (killNext) {
        killNext = false;
        // The payment's transaction has inserted into this harness's transactions table and is
        // waiting on us: it is the session holding that table's RowExclusiveLock. Every harness's
        // database is a copy of one template, so table oids repeat: the lock is looked for in this one.
        const admin = new pg.Client({ connectionString: h.databaseUrl });
        await admin.connect();
        const { rows } = await admin.query(`select pg_terminate_backend(l.pid) as done from pg_locks l
          join pg_class c on c.oid = l.relation
          where l.database = (select oid from pg_database where datname = current_database())
            and c.relname = 'transactions' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`);
        await admin.end();
        killed += rows.filter((r) => r.done).length;
      }
      return sandbox.startCheckout(payment);
    },
  };
}

onPostgres('a payment whose database connection dies', () => {
  beforeAll(async () => {
    h = await createHarness({}, { payments: killingProvider() });
    token = (await signUp(h)).token;
  });
  afterAll(async () => { await h?.close(); });

  it('leaves no partial rows, answers 503, and a retry with the same key completes', async () => {
    const productId = await onlineProductId(h, 'HOME');
    const today = Date.now(); // read once: two reads may fall either side of midnight
    const start = new Date(today + 10 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(today + 374 * 86_400_000).toISOString().slice(0, 10);
    const policy = (await h.call({ method: 'POST', url: '/api/v1/client/policies', token, payload: {
      policyType: 'HOME', currency: 'GHS', startDate: start, endDate: end, productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    } })).json().data;
    const invoiceId = policy.invoice.id;
    const pay = () => h.call({ method: 'POST', url: '/api/v1/client/transactions', token, headers: { 'idempotency-key': 'dies-midway' },
      payload: { invoiceId, paymentMethod: 'ONLINE' } });
    const count = async (table: 'transactions' | 'transaction_state_changes' | 'notifications') => Number((await h.db.selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = { transactions: await count('transactions'), changes: await count('transaction_state_changes'), notes: await count('notifications') };

    killNext = true;
    const dead = await pay();
    expect(killed).toBe(1);
    expect(dead.statusCode).toBe(503);
    expect(dead.headers['retry-after']).toBe('1');
    expect({ transactions: await count('transactions'), changes: await count('transaction_state_changes'), notes: await count('notifications') })
      .toEqual(before);
    // The payment number taken in the dead transaction was given back with it.
    const retried = await pay();
    expect(retried.statusCode).toBe(201);
    expect(retried.json().data).toMatchObject({ status: 'PENDING_PAYMENT', transactionNo: 'TRX-0001', amount: policy.invoice.amount });
    expect((await pay()).body).toBe(retried.body);
    expect(await count('transactions')).toBe(before.transactions + 1);
  });
});


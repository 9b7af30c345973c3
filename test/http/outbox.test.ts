import { dispatchOutbox } from '../../server/platform/outbox.js';
import type { MessageTransport } from '../../server/platform/notifier.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { signUp } from '../helpers/clients.js';

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

describe('outbox dispatch', () => {
  it('delivers pending messages once, marks them sent, and retries failures up to 5 times', async () => {
    const { body } = await signUp(h);
    const delivered: string[] = [];
    const transport: MessageTransport = { async deliver(message) { delivered.push(message.recipient); } };
    expect(await dispatchOutbox(h.db, transport)).toBeGreaterThan(0);
    expect(delivered).toContain(body.email);
    const row = await h.db.selectFrom('outbox').selectAll().where('recipient', '=', body.email as string).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'SENT', attempts: 1 });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(await dispatchOutbox(h.db, transport)).toBe(0);

    const second = await signUp(h);
    const failing: MessageTransport = { async deliver() { throw new Error('smtp down'); } };
    for (let i = 0; i < 5; i += 1) await dispatchOutbox(h.db, failing);
    const failed = await h.db.selectFrom('outbox').selectAll().where('recipient', '=', second.body.email as string).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 5 });
  });
});

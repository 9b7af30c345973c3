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

describe('CORS', () => {
  it('answers preflight for the headers client apps send', async () => {
    const res = await h.app.inject({ method: 'OPTIONS', url: '/api/v1/auth/login', headers: {
      origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'api-key,authorization,content-type',
    } });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('api-key');
  });
});

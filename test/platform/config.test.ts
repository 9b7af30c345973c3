import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configWarnings, DEFAULT_SANDBOX_API_KEY, DEFAULT_SANDBOX_MAIL_FROM, DEFAULT_SANDBOX_OPERATOR_KEY, loadConfig, SANDBOX_CORS_ORIGINS } from '../../server/platform/config.js';

/** Where a production deployment's e-mail and SMS go. */
const PRODUCTION_MESSAGES = {
  SMTP_URL: 'smtps://mailer:s%40cret@smtp.example.com:465', MAIL_FROM: 'no-reply@coverline.example',
  SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'coverline', AFRICASTALKING_API_KEY: 'atsk_live_key',
};

/**
 * What a production deployment names for its payments (the sandbox here, with a secret of its own),
 * its own operator key and its messages' transports.
 */
const PRODUCTION_PAYMENTS = { PAYMENT_PROVIDER: 'sandbox', PAYMENT_WEBHOOK_SECRET: 'w'.repeat(40), OPERATOR_KEY: 'o'.repeat(40), ...PRODUCTION_MESSAGES };

describe('configuration', () => {
  it('has the documented defaults', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, sandboxApiKey: DEFAULT_SANDBOX_API_KEY, corsOrigins: SANDBOX_CORS_ORIGINS });
    expect(config.dataDir).toBe(dir);
  });

  it('generates a JWT secret once and keeps it in DATA_DIR, readable only by its owner', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(path.join(dir, 'jwt-secret')).mode & 0o077).toBe(0);
  });

  it('requires JWT_SECRET in production, and a long one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow('JWT_SECRET is required when NODE_ENV=production');
    expect(() => loadConfig({ JWT_SECRET: 'short', DATA_DIR: dir })).toThrow('JWT_SECRET must be at least 32 characters');
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), DATA_DIR: dir, ...PRODUCTION_PAYMENTS }).host).toBe('0.0.0.0');
  });

  it('takes the sandbox payment provider by default only outside production, where it and its webhook secret must be named', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const prod = { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), DATA_DIR: dir };
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ paymentProvider: 'sandbox', paymentWebhookSecret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(() => loadConfig(prod)).toThrow('PAYMENT_PROVIDER is required when NODE_ENV=production');
    expect(() => loadConfig({ ...prod, PAYMENT_PROVIDER: 'sandbox' })).toThrow('PAYMENT_WEBHOOK_SECRET is required when NODE_ENV=production');
    expect(() => loadConfig({ ...prod, ...PRODUCTION_PAYMENTS, PAYMENT_WEBHOOK_SECRET: 'short' })).toThrow('PAYMENT_WEBHOOK_SECRET must be at least 32 characters');
    expect(() => loadConfig({ DATA_DIR: dir, PAYMENT_PROVIDER: 'stripe' })).toThrow('PAYMENT_PROVIDER must be sandbox');
    expect(loadConfig({ ...prod, ...PRODUCTION_PAYMENTS })).toMatchObject({ paymentProvider: 'sandbox', paymentWebhookSecret: PRODUCTION_PAYMENTS.PAYMENT_WEBHOOK_SECRET });
  });

  it('takes the documented sandbox operator key only outside production, where OPERATOR_KEY must be set, long and not that key', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const prod = { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), DATA_DIR: dir, PAYMENT_PROVIDER: 'sandbox', PAYMENT_WEBHOOK_SECRET: 'w'.repeat(40), ...PRODUCTION_MESSAGES };
    expect(loadConfig({ DATA_DIR: dir }).operatorKey).toBe(DEFAULT_SANDBOX_OPERATOR_KEY);
    expect(DEFAULT_SANDBOX_OPERATOR_KEY).toBe('op_sandbox_coverline_00000000000000000000');
    expect(loadConfig({ DATA_DIR: dir, OPERATOR_KEY: 'k'.repeat(32) }).operatorKey).toBe('k'.repeat(32));
    expect(() => loadConfig(prod)).toThrow('OPERATOR_KEY is required when NODE_ENV=production');
    expect(() => loadConfig({ ...prod, OPERATOR_KEY: 'short' })).toThrow('OPERATOR_KEY must be at least 32 characters');
    expect(() => loadConfig({ DATA_DIR: dir, OPERATOR_KEY: 'k'.repeat(31) })).toThrow('OPERATOR_KEY must be at least 32 characters');
    expect(() => loadConfig({ ...prod, OPERATOR_KEY: DEFAULT_SANDBOX_OPERATOR_KEY })).toThrow('must not be the documented sandbox key');
    expect(loadConfig({ ...prod, OPERATOR_KEY: 'o'.repeat(40) }).operatorKey).toBe('o'.repeat(40));
  });

  it('keeps metrics off without METRICS_TOKEN and refuses one shorter than 32 characters', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(loadConfig({ DATA_DIR: dir }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'm'.repeat(32) }).metricsToken).toBe('m'.repeat(32));
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'm'.repeat(31) })).toThrow('METRICS_TOKEN must be at least 32 characters (unset it to turn metrics off)');
  });

  it('reads the environment it documents and refuses nonsense numbers', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({
      DATA_DIR: dir, PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'postgres://x@y/z', SANDBOX_API_KEY: 'sk_sandbox_mine',
      CORS_ORIGINS: 'https://a.example, https://b.example', BODY_LIMIT_BYTES: '2048',
    });
    expect(config).toMatchObject({
      port: 8080, host: '0.0.0.0', databaseUrl: 'postgres://x@y/z', sandboxApiKey: 'sk_sandbox_mine',
      corsOrigins: ['https://a.example', 'https://b.example'], bodyLimitBytes: 2048,
    });
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow('PORT must be a whole number');
  });

  it('reminds of renewals 30 days ahead unless RENEWAL_REMINDER_DAYS says otherwise (0 none, at most a year)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(loadConfig({ DATA_DIR: dir }).renewalReminderDays).toBe(30);
    expect(loadConfig({ DATA_DIR: dir, RENEWAL_REMINDER_DAYS: '14' }).renewalReminderDays).toBe(14);
    expect(loadConfig({ DATA_DIR: dir, RENEWAL_REMINDER_DAYS: '0' }).renewalReminderDays).toBe(0);
    for (const bad of ['-1', '2.5', 'soon']) {
      expect(() => loadConfig({ DATA_DIR: dir, RENEWAL_REMINDER_DAYS: bad })).toThrow('RENEWAL_REMINDER_DAYS must be a whole number');
    }
    expect(() => loadConfig({ DATA_DIR: dir, RENEWAL_REMINDER_DAYS: '400' })).toThrow('RENEWAL_REMINDER_DAYS must be at most 365');
  });

  it('keeps messages in the sandbox with nothing set, and sends through the channels configured outside production', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(loadConfig({ DATA_DIR: dir }).messages).toEqual({ mode: 'sandbox', mailFrom: DEFAULT_SANDBOX_MAIL_FROM, smtpUrl: undefined, sms: undefined });
    expect(DEFAULT_SANDBOX_MAIL_FROM).toBe('no-reply@coverline.local');
    expect(loadConfig({ DATA_DIR: dir, SMTP_URL: 'smtp://127.0.0.1:2525' }).messages).toEqual({ mode: 'live', smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: DEFAULT_SANDBOX_MAIL_FROM, sms: undefined });
    expect(loadConfig({ DATA_DIR: dir, SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'sandbox', AFRICASTALKING_API_KEY: 'k' }).messages)
      .toEqual({ mode: 'live', mailFrom: DEFAULT_SANDBOX_MAIL_FROM, smtpUrl: undefined, sms: { provider: 'africastalking', username: 'sandbox', apiKey: 'k', baseUrl: 'https://api.sandbox.africastalking.com' } });
    expect(loadConfig({ DATA_DIR: dir, ...PRODUCTION_MESSAGES, AFRICASTALKING_BASE_URL: 'http://127.0.0.1:8080/' }).messages)
      .toEqual({ mode: 'live', smtpUrl: PRODUCTION_MESSAGES.SMTP_URL, mailFrom: 'no-reply@coverline.example', sms: { provider: 'africastalking', username: 'coverline', apiKey: 'atsk_live_key', baseUrl: 'http://127.0.0.1:8080' } });
    expect(loadConfig({ DATA_DIR: dir, ...PRODUCTION_MESSAGES }).messages.sms?.baseUrl).toBe('https://api.africastalking.com');
  });

  it('refuses to start in production without SMTP_URL, MAIL_FROM and an SMS provider, naming each missing one, unless MESSAGES_DISABLED=true', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const prod = { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), DATA_DIR: dir, PAYMENT_PROVIDER: 'sandbox', PAYMENT_WEBHOOK_SECRET: 'w'.repeat(40), OPERATOR_KEY: 'o'.repeat(40) };
    expect(() => loadConfig(prod)).toThrow('SMTP_URL, MAIL_FROM, SMS_PROVIDER (with AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY) are required when NODE_ENV=production');
    expect(() => loadConfig({ ...prod, ...PRODUCTION_MESSAGES, SMTP_URL: '' })).toThrow(/^SMTP_URL is required when NODE_ENV=production.*MESSAGES_DISABLED=true/);
    expect(() => loadConfig({ ...prod, ...PRODUCTION_MESSAGES, MAIL_FROM: '' })).toThrow(/^MAIL_FROM is required when NODE_ENV=production/);
    expect(() => loadConfig({ ...prod, ...PRODUCTION_MESSAGES, SMS_PROVIDER: '', AFRICASTALKING_USERNAME: '', AFRICASTALKING_API_KEY: '' })).toThrow(/^SMS_PROVIDER \(with AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY\) is required/);
    expect(loadConfig({ ...prod, ...PRODUCTION_MESSAGES }).messages.mode).toBe('live');
    const disabled = { ...prod, MESSAGES_DISABLED: 'true' };
    const config = loadConfig(disabled);
    expect(config.messages.mode).toBe('disabled');
    expect(configWarnings(config, disabled)).toContain('messages are disabled (MESSAGES_DISABLED=true): no code or notice reaches anyone');
    expect(configWarnings(loadConfig({ ...prod, ...PRODUCTION_MESSAGES, PUBLIC_BASE_URL: 'https://api.example' }), { PUBLIC_BASE_URL: 'x' })).toEqual([]);
    expect(configWarnings(loadConfig({ ...prod, ...PRODUCTION_MESSAGES, AFRICASTALKING_USERNAME: 'sandbox' }), { PUBLIC_BASE_URL: 'x' }))
      .toEqual([expect.stringMatching(/^AFRICASTALKING_USERNAME is sandbox: SMS go to Africa's Talking's simulator/)]);
  });

  it('refuses message settings it cannot use, without repeating an SMTP password', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    for (const bad of ['http://mail.example.com', 'smtp://', 'mail.example.com:587', 'smtp://user:hunter22@']) {
      expect(() => loadConfig({ DATA_DIR: dir, SMTP_URL: bad })).toThrow(/^SMTP_URL must be smtp:\/\/\[user:password@\]host/);
    }
    expect(() => loadConfig({ DATA_DIR: dir, SMTP_URL: 'smtp://user:hunter22@' })).not.toThrow(/hunter22/);
    for (const bad of ['Coverline <no-reply@coverline.example>', 'no-reply', 'no reply@coverline.example']) {
      expect(() => loadConfig({ DATA_DIR: dir, MAIL_FROM: bad })).toThrow('MAIL_FROM must be a bare e-mail address');
    }
    expect(() => loadConfig({ DATA_DIR: dir, MESSAGES_DISABLED: 'yes' })).toThrow('MESSAGES_DISABLED must be true or false');
    expect(loadConfig({ DATA_DIR: dir, MESSAGES_DISABLED: 'false' }).messages.mode).toBe('sandbox');
    expect(() => loadConfig({ DATA_DIR: dir, SMS_PROVIDER: 'twilio' })).toThrow('SMS_PROVIDER must be africastalking');
    expect(() => loadConfig({ DATA_DIR: dir, SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'coverline' })).toThrow('AFRICASTALKING_API_KEY is required when SMS_PROVIDER=africastalking');
    expect(() => loadConfig({ DATA_DIR: dir, SMS_PROVIDER: 'africastalking' })).toThrow('AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY are required');
    expect(() => loadConfig({ DATA_DIR: dir, AFRICASTALKING_USERNAME: 'coverline', AFRICASTALKING_API_KEY: 'k' })).toThrow('SMS_PROVIDER is not');
    expect(() => loadConfig({ DATA_DIR: dir, ...PRODUCTION_MESSAGES, AFRICASTALKING_BASE_URL: 'ftp://x' })).toThrow('AFRICASTALKING_BASE_URL must be an http(s) URL');
  });

  it('takes SHUTDOWN_TIMEOUT_MS (20 s unless set, at least 1 ms) and TRUST_PROXY (true or false, off unless set)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ shutdownTimeoutMs: 20_000, trustProxy: false });
    expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '5000', TRUST_PROXY: 'true' })).toMatchObject({ shutdownTimeoutMs: 5000, trustProxy: true });
    expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '0' })).toThrow('SHUTDOWN_TIMEOUT_MS must be at least 1');
    expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow('SHUTDOWN_TIMEOUT_MS must be a whole number');
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'yes' })).toThrow('TRUST_PROXY must be true or false');
  });
});

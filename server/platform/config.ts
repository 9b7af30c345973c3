import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { africasTalkingBaseUrl } from './messages/sms/africas-talking.js';
import { CONFIG_VARIABLES, declaredEnv, type DeclaredEnv, type NumberVariable } from './config-variables.js';

/**
 * Everything the server reads from its environment, checked once at start. The variables are
 * declared in config-variables.ts (meaning, default, when required, secret or not): loadConfig
 * reads only those.
 */
export interface Config {
  production: boolean;
  port: number;
  host: string;
  /** PostgreSQL URL; unset means embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** The sandbox tenant's Api-Key, seeded on a fresh database. */
  sandboxApiKey: string;
  /** Where clients reach this API: hosted checkout links are built from it. */
  publicBaseUrl: string;
  /**
   * Who takes card and mobile money payments. `sandbox` (the built-in test mode: its hosted pages
   * let anyone "pay") is the default outside production; production must name it explicitly.
   */
  paymentProvider: 'sandbox';
  /** Signs and verifies the payment provider's webhooks (HMAC-SHA256). */
  paymentWebhookSecret: string;
  /**
   * The platform operator's credential (`Operator-Key` header of the `/operator/...` calls, which
   * create and change companies). Required in production; a documented sandbox key otherwise.
   */
  operatorKey: string;
  jwtSecret: string;
  /** Access token lifetime (JWT_TTL_SECONDS, 15 minutes unless set): short, as a refresh token renews it. */
  jwtTtlSeconds: number;
  /**
   * How long a session's refresh tokens last, in days from its login whatever its rotations
   * (CLIENT_REFRESH_TOKEN_DAYS, 30; STAFF_REFRESH_TOKEN_DAYS, 7): then the app signs in again.
   */
  refreshTokenDays: { client: number; staff: number };
  /**
   * Origins whose pages may call the API from a browser (CORS). `*` allows any real origin (never
   * the opaque `null` of sandboxed frames and files); an empty list allows none.
   */
  corsOrigins: string[] | '*';
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long a SIGTERM/SIGINT may take to finish requests and the running jobs before the process exits 1. */
  shutdownTimeoutMs: number;
  /** TRUST_PROXY=true: the caller's address comes from X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  /** Where Firebase ID token signing keys are fetched (JWKS). */
  firebaseJwksUrl: string;
  logLevel: string;
  /** Where uploaded documents are stored: `local` (DATA_DIR/files) or `s3`. */
  storageDriver: 'local' | 's3';
  /** S3 (or S3-compatible) bucket, region, endpoint (MinIO etc.) and addressing; credentials from the AWS chain. */
  s3Bucket?: string;
  s3Region: string;
  s3Endpoint?: string;
  s3ForcePathStyle: boolean;
  /** Largest uploaded file, in bytes; larger ones get 413. */
  maxUploadBytes: number;
  /** Most files in one upload; more get 413. */
  maxUploadFiles: number;
  /** Wrong or missing Operator-Keys one address may send in 15 minutes (429 past it). */
  operatorKeyFailuresPerAddress: number;
  /** Sign-ups one caller address may make in an hour (429 past it). */
  signupsPerAddressPerHour: number;
  /** The longest wait between polls of the job queue (a committed job wakes the worker at once); 0 runs no background jobs here. */
  jobPollIntervalMs: number;
  /** How long a claimed job stays its worker's unless renewed (the worker renews it every third of it while the job runs). */
  jobLeaseMs: number;
  /** How many days before a policy's end date its client is reminded to renew (once per policy and end date); 0 sends none. */
  renewalReminderDays: number;
  /** How e-mail and SMS leave (server/platform/messages/transports.ts). */
  messages: MessagesConfig;
  /**
   * METRICS_TOKEN: the bearer token `GET /metrics` (Prometheus) takes, at least 32 characters.
   * Unset: no metrics are kept and the route answers 404, as if it did not exist.
   */
  metricsToken?: string;
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: the OTLP/HTTP collector traces are sent to (`<endpoint>/v1/traces`);
   * unset, nothing is traced and no OpenTelemetry code is loaded.
   */
  otlpEndpoint?: string;
}

/**
 * `sandbox`: nothing leaves, the outbox is the mailbox (the default outside production with nothing
 * configured). `live`: the channels configured here go out through their provider (outside
 * production an unconfigured channel stays in the sandbox; production configures both).
 * `disabled` (MESSAGES_DISABLED=true): every message fails, nothing is sent.
 */
export interface MessagesConfig {
  mode: 'sandbox' | 'live' | 'disabled';
  /** SMTP_URL: `smtp://user:pass@host:587` or `smtps://user:pass@host:465`. */
  smtpUrl?: string;
  /** MAIL_FROM: the bare address every e-mail is sent from, the company's name before it. */
  mailFrom: string;
  sms?: { provider: 'africastalking'; username: string; apiKey: string; baseUrl: string };
}

/**
 * Outside production, with CORS_ORIGINS unset: the developer site (`npm run docs:serve`, port 3001)
 * and the API's own default address. Production allows no other origin until told.
 */
export const SANDBOX_CORS_ORIGINS = ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://localhost:3001', 'http://127.0.0.1:3001'];

/** CORS_ORIGINS: `*`, or a comma-separated list of origins (scheme, host and port; no path). */
function corsOrigins(env: DeclaredEnv, production: boolean): string[] | '*' {
  const value = env.CORS_ORIGINS?.trim();
  if (value === '*') return '*';
  if (!value) return production ? [] : SANDBOX_CORS_ORIGINS;
  return value.split(',').map((origin) => origin.trim()).filter(Boolean).map((origin) => {
    let url: URL;
    try { url = new URL(origin); } catch { throw new Error(`CORS_ORIGINS: ${origin} is not an origin (scheme://host[:port])`); }
    if (url.origin === 'null' || url.origin !== origin.replace(/\/$/, '')) throw new Error(`CORS_ORIGINS: ${origin} is not an origin (scheme://host[:port], no path)`);
    return url.origin;
  });
}
/** Longest renewal reminder lead: a year, the usual term. */
export const MAX_RENEWAL_REMINDER_DAYS = 365;

export const DEFAULT_SANDBOX_API_KEY = 'sk_sandbox_coverline_0000000000000000';

/** The operator key outside production when OPERATOR_KEY is unset: documented, so never a secret. */
export const DEFAULT_SANDBOX_OPERATOR_KEY = 'op_sandbox_coverline_00000000000000000000';

/** Shortest OPERATOR_KEY accepted: it guards every tenant, so it must not be guessable. */
export const MIN_OPERATOR_KEY_LENGTH = 32;

/** A whole-number variable, its declared default when unset or empty. */
function int(name: NumberVariable, env: DeclaredEnv): number {
  const fallback: number = CONFIG_VARIABLES[name].defaultNumber;
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** RENEWAL_REMINDER_DAYS: a whole number of days from 0 (no reminders) to a year, 30 unless set. */
function renewalReminderDays(env: DeclaredEnv): number {
  const days = int('RENEWAL_REMINDER_DAYS', env);
  if (days > MAX_RENEWAL_REMINDER_DAYS) throw new Error(`RENEWAL_REMINDER_DAYS must be at most ${MAX_RENEWAL_REMINDER_DAYS}, got "${env.RENEWAL_REMINDER_DAYS}"`);
  return days;
}

/** JOB_LEASE_MS: at least a second (the heartbeat renews it every third of it). */
function jobLeaseMs(env: DeclaredEnv): number {
  const ms = int('JOB_LEASE_MS', env);
  if (ms < 1000) throw new Error(`JOB_LEASE_MS must be at least 1000, got "${env.JOB_LEASE_MS}"`);
  return ms;
}

/** SHUTDOWN_TIMEOUT_MS: at least a millisecond (0 would exit 1 before anything could finish). */
function shutdownTimeoutMs(env: DeclaredEnv): number {
  const ms = int('SHUTDOWN_TIMEOUT_MS', env);
  if (ms < 1) throw new Error(`SHUTDOWN_TIMEOUT_MS must be at least 1, got "${env.SHUTDOWN_TIMEOUT_MS}"`);
  return ms;
}

/** Default access token lifetime: 15 minutes (a refresh token renews it). */
export const DEFAULT_JWT_TTL_SECONDS: number = CONFIG_VARIABLES.JWT_TTL_SECONDS.defaultNumber;

/** A session's refresh token lifetime in days (at least 1, at most a year), from its login. */
function refreshTokenDays(name: 'CLIENT_REFRESH_TOKEN_DAYS' | 'STAFF_REFRESH_TOKEN_DAYS', env: DeclaredEnv): number {
  const days = int(name, env);
  if (days < 1 || days > 365) throw new Error(`${name} must be from 1 to 365 days, got "${env[name]}"`);
  return days;
}

/** The JWT secret: required in production; otherwise generated once and kept in the data folder. */
function jwtSecret(env: DeclaredEnv, production: boolean, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return env.JWT_SECRET;
  }
  if (production) throw new Error('JWT_SECRET is required when NODE_ENV=production');
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const env = declaredEnv(environment);
  const production = env.NODE_ENV === 'production';
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const signingSecret = jwtSecret(env, production, dataDir);
  return {
    production,
    port: int('PORT', env),
    host: env.HOST || (production ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    sandboxApiKey: env.SANDBOX_API_KEY || DEFAULT_SANDBOX_API_KEY,
    jwtSecret: signingSecret,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://${env.HOST && env.HOST !== '0.0.0.0' ? env.HOST : 'localhost'}:${int('PORT', env)}`).replace(/\/+$/, ''),
    ...payments(env, production, signingSecret),
    operatorKey: operatorKey(env, production),
    jwtTtlSeconds: int('JWT_TTL_SECONDS', env),
    refreshTokenDays: {
      client: refreshTokenDays('CLIENT_REFRESH_TOKEN_DAYS', env),
      staff: refreshTokenDays('STAFF_REFRESH_TOKEN_DAYS', env),
    },
    corsOrigins: corsOrigins(env, production),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', env),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', env),
    connectionTimeoutMs: int('CONNECTION_TIMEOUT_MS', env),
    shutdownTimeoutMs: shutdownTimeoutMs(env),
    trustProxy: flag('TRUST_PROXY', env),
    firebaseJwksUrl: env.FIREBASE_JWKS_URL
      || 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    jobPollIntervalMs: int('JOB_POLL_INTERVAL_MS', env),
    jobLeaseMs: jobLeaseMs(env),
    signupsPerAddressPerHour: int('SIGNUP_LIMIT_PER_ADDRESS', env),
    operatorKeyFailuresPerAddress: int('OPERATOR_KEY_FAILURE_LIMIT', env),
    renewalReminderDays: renewalReminderDays(env),
    ...storage(env),
    messages: messages(env, production),
    metricsToken: metricsToken(env),
    otlpEndpoint: otlpEndpoint(env),
  };
}

/** Shortest METRICS_TOKEN accepted: whoever has it reads the server's figures. */
export const MIN_METRICS_TOKEN_LENGTH = 32;

/** METRICS_TOKEN: unset (or empty) turns metrics off; a shorter one than MIN_METRICS_TOKEN_LENGTH fails the start. */
function metricsToken(env: DeclaredEnv): string | undefined {
  const token = env.METRICS_TOKEN?.trim();
  if (!token) return undefined;
  if (token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters (unset it to turn metrics off)`);
  }
  return token;
}

/** OTEL_EXPORTER_OTLP_ENDPOINT, if set: an http(s) URL, without its trailing slashes. */
function otlpEndpoint(env: DeclaredEnv): string | undefined {
  const value = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!value) return undefined;
  let url: URL | undefined;
  try { url = new URL(value); } catch { url = undefined; }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "${value}"`);
  return value.replace(/\/+$/, '');
}

/** MAIL_FROM outside production when unset: a domain no one owns, so nothing pretends to be real. */
export const DEFAULT_SANDBOX_MAIL_FROM = 'no-reply@coverline.local';

/**
 * Where e-mail and SMS go. Production sends both for real or, said outright, none: a deployment
 * must not keep its clients' one-time codes in a sandbox by default. So NODE_ENV=production
 * refuses to start without SMTP_URL, MAIL_FROM (mail from coverline.local, a domain no one owns, is
 * refused or taken for spam) and SMS_PROVIDER with its credentials, unless MESSAGES_DISABLED=true. Every value set
 * is checked at start, even when disabled, so a mistake shows before the first message.
 */
function messages(env: DeclaredEnv, production: boolean): MessagesConfig {
  const disabled = flag('MESSAGES_DISABLED', env);
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl) checkSmtpUrl(smtpUrl);
  const mailFrom = env.MAIL_FROM?.trim() || undefined;
  if (mailFrom && !/^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$/.test(mailFrom)) {
    throw new Error(`MAIL_FROM must be a bare e-mail address (name@domain; the company's name is put before it), got "${mailFrom}"`);
  }
  const sms = smsProvider(env);
  if (production && !disabled) {
    const missing = [
      ...(smtpUrl ? [] : ['SMTP_URL']),
      ...(mailFrom ? [] : ['MAIL_FROM']),
      ...(sms ? [] : ['SMS_PROVIDER (with AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY)']),
    ];
    if (missing.length) {
      throw new Error(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required when NODE_ENV=production, so e-mail and SMS reach people (or set MESSAGES_DISABLED=true to send none)`);
    }
  }
  return {
    mode: disabled ? 'disabled' : smtpUrl || sms ? 'live' : 'sandbox',
    smtpUrl,
    mailFrom: mailFrom ?? DEFAULT_SANDBOX_MAIL_FROM,
    sms,
  };
}

function flag(name: 'MESSAGES_DISABLED' | 'TRUST_PROXY', env: DeclaredEnv): boolean {
  const value = env[name]?.trim();
  if (!value) return false;
  if (value !== 'true' && value !== 'false') throw new Error(`${name} must be true or false, got "${value}"`);
  return value === 'true';
}

/** SMTP_URL: an smtp: or smtps: URL with a host. The message never repeats the URL: it may hold a password. */
function checkSmtpUrl(value: string): void {
  let url: URL | undefined;
  try { url = new URL(value); } catch { url = undefined; }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new Error('SMTP_URL must be smtp://[user:password@]host[:port] (STARTTLS) or smtps://[user:password@]host[:port] (TLS), with user and password URL-encoded');
  }
}

/** SMS_PROVIDER and its credentials; Africa's Talking's sandbox URL for its `sandbox` username. */
function smsProvider(env: DeclaredEnv): MessagesConfig['sms'] {
  const provider = env.SMS_PROVIDER?.trim();
  const username = env.AFRICASTALKING_USERNAME?.trim();
  const apiKey = env.AFRICASTALKING_API_KEY?.trim();
  if (!provider) {
    if (username || apiKey) throw new Error('AFRICASTALKING_USERNAME or AFRICASTALKING_API_KEY is set but SMS_PROVIDER is not: set SMS_PROVIDER=africastalking to send SMS through it');
    return undefined;
  }
  if (provider !== 'africastalking') throw new Error(`SMS_PROVIDER must be africastalking (the only SMS provider built in), got "${provider}"`);
  const missing = [...(username ? [] : ['AFRICASTALKING_USERNAME']), ...(apiKey ? [] : ['AFRICASTALKING_API_KEY'])];
  if (missing.length) throw new Error(`${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} required when SMS_PROVIDER=africastalking`);
  const baseUrl = (env.AFRICASTALKING_BASE_URL?.trim() || africasTalkingBaseUrl(username!)).replace(/\/+$/, '');
  let url: URL | undefined;
  try { url = new URL(baseUrl); } catch { url = undefined; }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new Error(`AFRICASTALKING_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  return { provider: 'africastalking', username: username!, apiKey: apiKey!, baseUrl };
}

/**
 * The payment provider and its webhook secret. In production both are named explicitly: a
 * deployment must not take the sandbox (whose pages pay any invoice at a click) by default, nor
 * sign webhooks with a secret derived from another one.
 */
function payments(env: DeclaredEnv, production: boolean, signingSecret: string) {
  const provider = env.PAYMENT_PROVIDER || (production ? undefined : 'sandbox');
  if (provider === undefined) throw new Error('PAYMENT_PROVIDER is required when NODE_ENV=production (the only provider built in is "sandbox", the test mode)');
  if (provider !== 'sandbox') throw new Error(`PAYMENT_PROVIDER must be sandbox (the only provider built in), got "${provider}"`);
  if (production && !env.PAYMENT_WEBHOOK_SECRET) throw new Error('PAYMENT_WEBHOOK_SECRET is required when NODE_ENV=production');
  if (env.PAYMENT_WEBHOOK_SECRET && env.PAYMENT_WEBHOOK_SECRET.length < 32) throw new Error('PAYMENT_WEBHOOK_SECRET must be at least 32 characters');
  return {
    paymentProvider: provider as 'sandbox',
    paymentWebhookSecret: env.PAYMENT_WEBHOOK_SECRET || createHmac('sha256', signingSecret).update('sandbox payment webhooks').digest('hex'),
  };
}

/**
 * The platform operator's key. Production must set its own (a deployment must not take the
 * documented sandbox key by default); elsewhere the sandbox key lets a developer try the calls.
 */
function operatorKey(env: DeclaredEnv, production: boolean): string {
  const key = env.OPERATOR_KEY;
  if (production && !key) throw new Error('OPERATOR_KEY is required when NODE_ENV=production');
  if (key && key.length < MIN_OPERATOR_KEY_LENGTH) throw new Error(`OPERATOR_KEY must be at least ${MIN_OPERATOR_KEY_LENGTH} characters`);
  if (production && key === DEFAULT_SANDBOX_OPERATOR_KEY) throw new Error('OPERATOR_KEY must not be the documented sandbox key when NODE_ENV=production');
  return key || DEFAULT_SANDBOX_OPERATOR_KEY;
}

/** Document storage settings; S3 needs a bucket, so a missing one fails at start, not at the first upload. */
function storage(env: DeclaredEnv) {
  const driver = env.STORAGE_DRIVER || 'local';
  if (driver !== 'local' && driver !== 's3') throw new Error(`STORAGE_DRIVER must be local or s3, got "${driver}"`);
  if (driver === 's3' && !env.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && pathStyle !== 'true' && pathStyle !== 'false') throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  const maxUploadBytes = int('MAX_UPLOAD_BYTES', env);
  const maxUploadFiles = int('MAX_UPLOAD_FILES', env);
  if (maxUploadBytes < 1 || maxUploadFiles < 1) throw new Error('MAX_UPLOAD_BYTES and MAX_UPLOAD_FILES must be at least 1');
  return {
    storageDriver: driver as 'local' | 's3',
    s3Bucket: env.S3_BUCKET || undefined,
    s3Region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    s3Endpoint: env.S3_ENDPOINT || undefined,
    s3ForcePathStyle: pathStyle === 'true',
    maxUploadBytes,
    maxUploadFiles,
  };
}

/**
 * What a start-up should warn of: settings left at a sandbox default where others will reach the
 * server (production, or listening beyond this machine). Links the API hands out (hosted checkout
 * pages) would point at localhost, which a payer's phone cannot open.
 */
export function configWarnings(config: Config, environment: NodeJS.ProcessEnv = process.env): string[] {
  const env = declaredEnv(environment);
  const reachable = config.production || !['127.0.0.1', 'localhost', '::1'].includes(config.host);
  const warnings: string[] = [];
  if (reachable && !env.PUBLIC_BASE_URL) {
    warnings.push(`PUBLIC_BASE_URL is not set: checkout links and other links the API gives out start with ${config.publicBaseUrl}, which callers elsewhere cannot open`);
  }
  if (config.messages.mode === 'disabled') {
    warnings.push('messages are disabled (MESSAGES_DISABLED=true): no code or notice reaches anyone');
  }
  if (config.production && config.messages.mode !== 'disabled' && config.messages.sms?.username === 'sandbox') {
    warnings.push("AFRICASTALKING_USERNAME is sandbox: SMS go to Africa's Talking's simulator, never to a phone");
  }
  return warnings;
}

/**
 * Every environment variable the server reads, declared once: what it means, its default (or how
 * the default is derived), when it is required, whether it is a secret and what values it takes.
 * `loadConfig` (config.ts) reads the environment only through `DeclaredEnv`, so reading a name not
 * declared here fails to compile; `scripts/config-page.ts` writes the docs' table of them
 * (docs/docs/_configuration-variables.md) from this list, and test/static/config-schema.test.ts
 * checks every declared name is read and every read is declared.
 */

/** The areas the variables are grouped by, in the order the docs table lists them. */
export const CONFIG_AREAS = ['server', 'database', 'security', 'payments', 'messages', 'storage', 'jobs', 'limits', 'observability'] as const;
export type ConfigArea = (typeof CONFIG_AREAS)[number];

export interface VariableSpec {
  area: ConfigArea;
  /** What it sets, in a sentence. */
  meaning: string;
  /** A whole-number variable's default, which loadConfig takes when it is unset or empty. */
  defaultNumber?: number;
  /** Any other default, or how the default is derived, as the docs say it (unset: no default). */
  defaultText?: string;
  /** When it must be set (unset: never). */
  requiredWhen?: string;
  /** A credential: never logged or shown. */
  secret: boolean;
  /** The values it takes (a whole number's range, a list, a form). */
  allowed: string;
}

export const CONFIG_VARIABLES = {
  // --- server ---
  NODE_ENV: { area: 'server', meaning: '`production` turns on the production rules: secrets, payment provider, operator key and message transports must be named; sandbox-only operations are not routed.', defaultText: 'unset (not production)', secret: false, allowed: '`production`, or anything else (not production; `test` silences the log)' },
  PORT: { area: 'server', meaning: 'The TCP port the API listens on.', defaultNumber: 3000, secret: false, allowed: 'a whole number' },
  HOST: { area: 'server', meaning: 'The address the API listens on.', defaultText: '`0.0.0.0` in production, else `127.0.0.1`', secret: false, allowed: 'an IP address or host name' },
  PUBLIC_BASE_URL: { area: 'server', meaning: 'Where clients reach this API: the links it hands out (hosted checkout pages) start with it.', defaultText: '`http://HOST:PORT`, with `localhost` for a HOST unset or `0.0.0.0`', secret: false, allowed: 'an http(s) URL without a trailing path' },
  TRUST_PROXY: { area: 'server', meaning: 'Whether the caller\'s address is read from `X-Forwarded-For` (set it behind a load balancer, so per-address limits count callers, not the balancer).', defaultText: '`false`', secret: false, allowed: '`true` or `false`' },
  REQUEST_TIMEOUT_MS: { area: 'server', meaning: 'How long a request may take to arrive whole before the connection is closed, in milliseconds.', defaultNumber: 30_000, secret: false, allowed: 'a whole number (0: no limit)' },
  CONNECTION_TIMEOUT_MS: { area: 'server', meaning: 'How long an idle connection is kept, in milliseconds.', defaultNumber: 60_000, secret: false, allowed: 'a whole number (0: no limit)' },
  SHUTDOWN_TIMEOUT_MS: { area: 'server', meaning: 'On SIGTERM or SIGINT, how long the process may take to finish its in-flight requests and the jobs it is running before it exits 1 anyway (logging what was still running), in milliseconds.', defaultNumber: 20_000, secret: false, allowed: 'a whole number from 1' },

  // --- database ---
  DATABASE_URL: { area: 'database', meaning: 'The PostgreSQL database (`postgres://user:password@host:5432/name`).', defaultText: 'unset: the embedded database (PGlite) in `DATA_DIR`', secret: true, allowed: 'a postgres:// or postgresql:// URL' },
  DATA_DIR: { area: 'database', meaning: 'The folder of the embedded database, the generated JWT secret and the local driver\'s files (`files/`).', defaultText: '`./data`', secret: false, allowed: 'a folder path' },

  // --- security ---
  JWT_SECRET: { area: 'security', meaning: 'Signs access tokens.', defaultText: 'generated once and kept in `DATA_DIR/jwt-secret` (outside production)', requiredWhen: 'NODE_ENV=production', secret: true, allowed: 'at least 32 characters' },
  JWT_TTL_SECONDS: { area: 'security', meaning: 'How long an access token lasts, in seconds (a refresh token renews it).', defaultNumber: 15 * 60, secret: false, allowed: 'a whole number' },
  CLIENT_REFRESH_TOKEN_DAYS: { area: 'security', meaning: 'How long a client\'s session lasts from its login, whatever its refreshes, in days.', defaultNumber: 30, secret: false, allowed: '1 to 365' },
  STAFF_REFRESH_TOKEN_DAYS: { area: 'security', meaning: 'How long a staff member\'s session lasts from its login, whatever its refreshes, in days.', defaultNumber: 7, secret: false, allowed: '1 to 365' },
  OPERATOR_KEY: { area: 'security', meaning: 'The platform operator\'s credential (`Operator-Key` of the `/operator/` calls).', defaultText: 'the documented sandbox key `op_sandbox_coverline_00000000000000000000` (outside production)', requiredWhen: 'NODE_ENV=production', secret: true, allowed: 'at least 32 characters, not the sandbox key in production' },
  SANDBOX_API_KEY: { area: 'security', meaning: 'The sandbox tenant\'s `Api-Key`, seeded on a fresh database.', defaultText: '`sk_sandbox_coverline_0000000000000000`', secret: true, allowed: 'any string' },
  CORS_ORIGINS: { area: 'security', meaning: 'Origins whose pages may call the API from a browser.', defaultText: 'none in production; else the docs site and the API on localhost and 127.0.0.1, ports 3000 and 3001', secret: false, allowed: '`*`, or comma-separated origins (scheme://host[:port], no path)' },
  FIREBASE_JWKS_URL: { area: 'security', meaning: 'Where the signing keys of Firebase ID tokens are fetched (JWKS).', defaultText: 'Google\'s securetoken JWKS URL', secret: false, allowed: 'an https URL' },

  // --- payments ---
  PAYMENT_PROVIDER: { area: 'payments', meaning: 'Who takes card and mobile money payments.', defaultText: '`sandbox` (outside production)', requiredWhen: 'NODE_ENV=production', secret: false, allowed: '`sandbox` (the only provider built in, the test mode)' },
  PAYMENT_WEBHOOK_SECRET: { area: 'payments', meaning: 'Signs and verifies the payment provider\'s webhooks (HMAC-SHA256).', defaultText: 'derived from JWT_SECRET (outside production)', requiredWhen: 'NODE_ENV=production', secret: true, allowed: 'at least 32 characters' },

  // --- messages ---
  MESSAGES_DISABLED: { area: 'messages', meaning: 'Sends no e-mail or SMS at all: every message fails.', defaultText: '`false`', secret: false, allowed: '`true` or `false`' },
  SMTP_URL: { area: 'messages', meaning: 'The SMTP server e-mail leaves through.', defaultText: 'unset: e-mail stays in the sandbox mailbox', requiredWhen: 'NODE_ENV=production, unless MESSAGES_DISABLED=true', secret: true, allowed: '`smtp://[user:password@]host[:port]` (STARTTLS) or `smtps://...` (TLS), user and password URL-encoded' },
  MAIL_FROM: { area: 'messages', meaning: 'The bare address e-mail is sent from (the company\'s name is put before it).', defaultText: '`no-reply@coverline.local` (outside production)', requiredWhen: 'NODE_ENV=production, unless MESSAGES_DISABLED=true', secret: false, allowed: 'name@domain' },
  SMS_PROVIDER: { area: 'messages', meaning: 'Who sends SMS.', defaultText: 'unset: SMS stay in the sandbox mailbox', requiredWhen: 'NODE_ENV=production, unless MESSAGES_DISABLED=true; or when AFRICASTALKING_USERNAME or AFRICASTALKING_API_KEY is set', secret: false, allowed: '`africastalking`' },
  AFRICASTALKING_USERNAME: { area: 'messages', meaning: 'The Africa\'s Talking application\'s username (`sandbox`: its simulator).', requiredWhen: 'SMS_PROVIDER=africastalking', secret: false, allowed: 'any string' },
  AFRICASTALKING_API_KEY: { area: 'messages', meaning: 'The Africa\'s Talking application\'s API key.', requiredWhen: 'SMS_PROVIDER=africastalking', secret: true, allowed: 'any string' },
  AFRICASTALKING_BASE_URL: { area: 'messages', meaning: 'Africa\'s Talking\'s API address.', defaultText: 'its sandbox API for the `sandbox` username, else its live API', secret: false, allowed: 'an http(s) URL' },

  // --- storage ---
  STORAGE_DRIVER: { area: 'storage', meaning: 'Where uploaded documents are kept.', defaultText: '`local` (DATA_DIR/files)', secret: false, allowed: '`local` or `s3`' },
  S3_BUCKET: { area: 'storage', meaning: 'The S3 (or S3-compatible) bucket; credentials come from the AWS chain (AWS_ACCESS_KEY_ID..., read by the AWS SDK).', requiredWhen: 'STORAGE_DRIVER=s3', secret: false, allowed: 'a bucket name' },
  S3_REGION: { area: 'storage', meaning: 'The bucket\'s region.', defaultText: 'AWS_REGION, else `us-east-1`', secret: false, allowed: 'a region name' },
  AWS_REGION: { area: 'storage', meaning: 'The bucket\'s region when S3_REGION is unset.', defaultText: '`us-east-1`', secret: false, allowed: 'a region name' },
  S3_ENDPOINT: { area: 'storage', meaning: 'An S3-compatible service\'s address (MinIO...).', defaultText: 'unset: AWS', secret: false, allowed: 'an http(s) URL' },
  S3_FORCE_PATH_STYLE: { area: 'storage', meaning: 'Addresses objects as `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO needs it).', defaultText: '`false`', secret: false, allowed: '`true` or `false`' },

  // --- jobs ---
  JOB_POLL_INTERVAL_MS: { area: 'jobs', meaning: 'The longest wait between two polls of the job queue (webhook and message delivery, due direct debits...) by this instance, in milliseconds: a job committed runs at once (the database notifies every instance), this poll is the fallback.', defaultNumber: 5_000, secret: false, allowed: 'a whole number (0: this instance runs no background jobs)' },
  JOB_LEASE_MS: { area: 'jobs', meaning: 'How long a job this instance has claimed stays its own, in milliseconds; renewed every third of it while the job runs, so it is what an instance that crashed mid-job makes that job wait before another instance runs it again.', defaultNumber: 30_000, secret: false, allowed: 'a whole number from 1000' },
  RENEWAL_REMINDER_DAYS: { area: 'jobs', meaning: 'How many days before a policy\'s end date its client is reminded to renew.', defaultNumber: 30, secret: false, allowed: '0 (no reminders) to 365' },

  // --- limits ---
  BODY_LIMIT_BYTES: { area: 'limits', meaning: 'The largest request body other than an upload, in bytes (413 past it).', defaultNumber: 1024 * 1024, secret: false, allowed: 'a whole number' },
  MAX_UPLOAD_BYTES: { area: 'limits', meaning: 'The largest uploaded file, in bytes (413 past it).', defaultNumber: 10 * 1024 * 1024, secret: false, allowed: 'a whole number from 1' },
  MAX_UPLOAD_FILES: { area: 'limits', meaning: 'The most files in one upload (413 past it).', defaultNumber: 10, secret: false, allowed: 'a whole number from 1' },
  SIGNUP_LIMIT_PER_ADDRESS: { area: 'limits', meaning: 'Sign-ups one caller address may make in an hour (429 past it).', defaultNumber: 20, secret: false, allowed: 'a whole number' },
  OPERATOR_KEY_FAILURE_LIMIT: { area: 'limits', meaning: 'Wrong or missing Operator-Keys one address may send in 15 minutes (429 past it).', defaultNumber: 20, secret: false, allowed: 'a whole number' },

  // --- observability ---
  LOG_LEVEL: { area: 'observability', meaning: 'The log\'s level (JSON lines on standard output).', defaultText: '`info` (`silent` when NODE_ENV=test)', secret: false, allowed: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' },
  METRICS_TOKEN: { area: 'observability', meaning: 'The bearer token `GET /metrics` (Prometheus\'s text format) takes; unset, metrics are off and the route answers 404.', defaultText: 'unset (metrics off)', secret: true, allowed: 'at least 32 characters' },
  OTEL_EXPORTER_OTLP_ENDPOINT: { area: 'observability', meaning: 'The OpenTelemetry collector traces are sent to over OTLP/HTTP (`<endpoint>/v1/traces`); unset, nothing is traced and no OpenTelemetry code is loaded. The SDK\'s own variables (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`) apply too.', defaultText: 'unset (no traces)', secret: false, allowed: 'an http(s) URL' },
} as const satisfies Record<string, VariableSpec>;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;

/** The variables whose default is a number (loadConfig's `int` takes it from here). */
export type NumberVariable = { [K in ConfigVariable]: (typeof CONFIG_VARIABLES)[K] extends { defaultNumber: number } ? K : never }[ConfigVariable];

/** The environment as loadConfig may read it: the declared names only (an undeclared one fails tsc). */
export type DeclaredEnv = { readonly [K in ConfigVariable]?: string };

/** The declared variables of `env` (a process environment or a test's object), nothing else. */
export function declaredEnv(env: NodeJS.ProcessEnv): DeclaredEnv {
  const declared: { [K in ConfigVariable]?: string } = {};
  for (const name of Object.keys(CONFIG_VARIABLES) as ConfigVariable[]) {
    if (env[name] !== undefined) declared[name] = env[name];
  }
  return declared;
}

/**
 * The console's API client: openapi-fetch over the types `npm run generate` writes from the contract
 * (generated/api.ts, openapi-typescript). No request or answer type is written by hand: a path, a
 * parameter or a body the contract does not have fails `npm run --prefix docs typecheck`.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../generated/api';

export type { components, paths };
export type Api = Client<paths>;
export type Schemas = components['schemas'];
/** A refusal as the API answers it (4xx and 5xx bodies): the console shows its `message`. */
export type ApiError = Schemas['ErrorResponse'];

/** The key the sandbox seeds (`SANDBOX_API_KEY` chooses another): documented, never a secret. */
export const SANDBOX_API_KEY = 'sk_sandbox_coverline_0000000000000000';

/**
 * A client for the API at `baseUrl` (up to /api/v1). Every call sends the `Api-Key`, and the bearer
 * token `token()` answers when there is one (kept in memory by the caller, never in a cookie; it may
 * refresh it first, so it may be a promise).
 */
export function createApi(baseUrl: string, apiKey: string, token: () => string | undefined | Promise<string | undefined>): Api {
  const api = createClient<paths>({ baseUrl: baseUrl.trim().replace(/\/+$/, '') });
  const auth: Middleware = {
    async onRequest({ request }) {
      request.headers.set('Api-Key', apiKey);
      const bearer = await token();
      if (bearer) request.headers.set('Authorization', `Bearer ${bearer}`);
      return request;
    },
  };
  api.use(auth);
  return api;
}

/** Whether a failed call's error is the API's own answer (a 4xx or 5xx body), not a missing answer. */
export const isRefusal = (error: unknown): error is ApiError =>
  !!error && typeof error === 'object' && 'message' in error && 'statusCode' in error;

/** What to tell the reader when a call fails: the API's own message, or why there was no answer. */
export function problemOf(error: unknown, baseUrl: string): string {
  if (isRefusal(error)) {
    const refusal = error;
    return `${refusal.statusCode} ${refusal.code ?? refusal.error}: ${refusal.message}`;
  }
  if (error instanceof SessionEnded) return error.message;
  return `No answer from ${baseUrl}. Is the API running there, and does it allow this site's origin (CORS_ORIGINS)?`;
}

/** The session could not be kept (its refresh token was refused): the reader signs in again. */
export class SessionEnded extends Error {}

/** Turns openapi-fetch's `{ data, error }` into a value or a thrown refusal, as TanStack Query expects. */
export async function unwrap<T, E>(call: Promise<{ data?: T; error?: E }>): Promise<T> {
  const { data, error } = await call;
  if (error !== undefined) throw error;
  return data as T;
}

/**
 * For the list calls that can also answer a spreadsheet (`format=excel`): the JSON page, which is
 * what the console asks for (it never sends `format`).
 */
export async function unwrapPage<T, E>(call: Promise<{ data?: T; error?: E }>): Promise<Exclude<T, string>> {
  const data = await unwrap(call);
  if (typeof data === 'string') throw new Error('the API answered a file where a page was asked for');
  return data as Exclude<T, string>;
}

/** One key per thing the reader means to create, so a retried click never creates it twice. */
export const newIdempotencyKey = (): string => `console-${crypto.randomUUID()}`;

/**
 * A decimal amount typed by the reader ("1250.50") as the JSON number the contract takes. The
 * contract bounds money to two decimals and 15 significant digits, which a JSON number carries
 * exactly: the text the API reads back is the text typed. The console never does arithmetic on it.
 */
export function moneyOf(text: string): number {
  const trimmed = text.trim();
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(trimmed)) throw new Error(`"${text}" is not an amount with at most two decimals`);
  return Number(trimmed);
}

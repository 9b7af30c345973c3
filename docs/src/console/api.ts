/**
 * The console's API client: openapi-fetch over the types `npm run generate` writes from the contract
 * (generated/api.ts, openapi-typescript). No request or answer type is written by hand: a path, a
 * parameter or a body the contract does not have fails `npm run --prefix docs typecheck`.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../generated/api';

export type { components, paths };
export type Api = Client<paths>;
/** A refusal as the API answers it (4xx and 5xx bodies): the console shows its `message`. */
export type ApiError = components['schemas']['ErrorResponse'];

/** The key the sandbox seeds (`SANDBOX_API_KEY` chooses another): documented, never a secret. */
export const SANDBOX_API_KEY = 'sk_sandbox_coverline_0000000000000000';

/**
 * A client for the API at `baseUrl` (up to /api/v1). Every call sends the `Api-Key`, and the bearer
 * token `token()` answers when there is one (kept in memory by the caller, never in a cookie).
 */
export function createApi(baseUrl: string, apiKey: string, token: () => string | undefined): Api {
  const api = createClient<paths>({ baseUrl: baseUrl.trim().replace(/\/+$/, '') });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Api-Key', apiKey);
      const bearer = token();
      if (bearer) request.headers.set('Authorization', `Bearer ${bearer}`);
      return request;
    },
  };
  api.use(auth);
  return api;
}

/** What to tell the reader when a call fails: the API's own message, or why there was no answer. */
export function problemOf(error: unknown, baseUrl: string): string {
  if (error && typeof error === 'object' && 'message' in error && 'statusCode' in error) {
    const refusal = error as ApiError;
    return `${refusal.statusCode} ${refusal.code ?? refusal.error}: ${refusal.message}`;
  }
  return `No answer from ${baseUrl}. Is the API running there, and does it allow this site's origin (CORS_ORIGINS)?`;
}

/** Turns openapi-fetch's `{ data, error }` into a value or a thrown refusal, as TanStack Query expects. */
export async function unwrap<T, E>(call: Promise<{ data?: T; error?: E }>): Promise<T> {
  const { data, error } = await call;
  if (error !== undefined) throw error;
  return data as T;
}

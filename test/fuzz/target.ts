import { createHmac } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { individualBody } from '../helpers/clients.js';
import type { Harness } from '../helpers/harness.js';
import { staffSession } from '../helpers/staff.js';
import { basePath, loadSpec, operations, type Json } from './spec.js';

/** A client signed up through the API (or, for staff calls, a staff member's session). */
export interface Client {
  id: string;
  token: string;
  /** The Api-Key of the client's tenant. */
  apiKey: string;
  username: string;
  password: string;
}

/** What the fuzzer and the access matrix talk to: an app, two tenants' keys, and a way to get clients. */
export interface Target {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Tenant 1's Api-Key (the default). */
  apiKey: string;
  /** Tenant 2's Api-Key. */
  otherApiKey: string;
  /** The platform operator's key, for the operator's calls (`operatorKey`); a target without them has none. */
  operatorKey?: string;
  /** The server's METRICS_TOKEN, for `GET /metrics` (`metricsToken`); a target without metrics has none. */
  metricsToken?: string;
  /** The server's body limit, for the 413 probe. */
  bodyLimitBytes?: number;
  /** Signs a new client up through the API (tenant 1 unless another key is given). */
  newClient(apiKey?: string): Promise<Client>;
  /** A fresh session of a tenant 1 staff member, for the staff calls; a target without staff calls has none. */
  newStaff?(): Promise<Client>;
}

/** The METRICS_TOKEN the fuzzer's servers are given, so `GET /metrics` is routed and fuzzed like any other operation. */
export const FUZZ_METRICS_TOKEN = 'fuzz-metrics-token-0123456789abcdef0123';

/** The signup operation: the operation answering an access token that needs only the Api-Key. */
function signUpOperation(doc: Json) {
  const op = operations(doc).find((o) => o.operationId === 'signUp');
  if (!op) throw new Error('the contract has no signUp operation: the fuzzer cannot make clients');
  return op;
}

export function harnessTarget(h: Harness, app: FastifyInstance = h.app, doc: Json = loadSpec()): Target {
  const signUpUrl = `${basePath(doc)}${signUpOperation(doc).path}`;
  return {
    inject: (options) => app.inject(options),
    apiKey: h.apiKey,
    otherApiKey: h.otherApiKey,
    operatorKey: h.config.operatorKey,
    metricsToken: h.config.metricsToken,
    bodyLimitBytes: h.config.bodyLimitBytes,
    async newClient(apiKey = h.apiKey) {
      const body = individualBody();
      const res = await app.inject({ method: 'POST', url: signUpUrl, payload: body, headers: { 'api-key': apiKey } });
      if (res.statusCode !== 201) throw new Error(`could not sign a client up: ${res.statusCode} ${res.body}`);
      const data = res.json().data;
      return { id: data.id, token: data.accessToken, apiKey, username: body.email, password: body.password };
    },
    // The sandbox's executive manager, whom the permission table lets make every staff call.
    newStaff: () => staffSession({ ...h, app }),
  };
}

/** An HS256 JWT with the client's own claims but signed with a secret the server does not know. */
export function forgedToken(token: string | undefined): string {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  let claims: Json = { sub: '00000000-0000-4000-8000-000000000000', kind: 'client', sv: 1, jti: 'fuzz-forged-token' };
  try { if (token) claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')); } catch { /* keep the default */ }
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  const signature = createHmac('sha256', 'a-secret-the-server-does-not-know-0123456789').update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

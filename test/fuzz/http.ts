import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { FuzzRequest } from './generate.js';
import { basePath, type Json, type Operation } from './spec.js';
import { forgedToken, type Client, type Target } from './target.js';

/** Turning a planned request into an `inject` call, and describing it so it can be replayed. */

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as sent, when there is one. */
  payload?: string;
  response: LightMyRequestResponse;
}

export function buildUrl(doc: Json, route: string, params: Record<string, string>, query: Array<[string, string]> = []): string {
  const path = route.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `missing-${name}`));
  const search = new URLSearchParams(query).toString();
  return `${basePath(doc)}${path}${search ? `?${search}` : ''}`;
}

/** The headers a request's credentials choice stands for. */
export function authHeaders(op: Operation, auth: FuzzRequest['auth'], target: Target, client: Client | undefined, apiKey?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const key = apiKey ?? client?.apiKey ?? target.apiKey;
  if (op.security === 'operator') {
    // The operator's calls take the Operator-Key and nothing else.
    if (auth === 'client') headers['operator-key'] = target.operatorKey ?? '';
    else if (auth === 'badKey') headers['operator-key'] = 'op_fuzz_not_the_operator_key_0000000000000';
    else if (auth === 'apiKeyInstead') {
      headers['api-key'] = key;
      if (client) headers.authorization = `Bearer ${client.token}`;
    }
    return headers;
  }
  if (op.security === 'metrics') {
    // The metrics take the server's METRICS_TOKEN as a bearer token and nothing else.
    if (auth === 'client') headers.authorization = `Bearer ${target.metricsToken ?? ''}`;
    else if (auth === 'badKey') headers.authorization = 'Bearer not-the-metrics-token-0000000000000000';
    else if (auth === 'apiKeyInstead') {
      headers['api-key'] = key;
      if (client) headers.authorization = `Bearer ${client.token}`;
    }
    return headers;
  }
  const bearer = op.security === 'bearer' || op.security === 'staff';
  switch (auth) {
    case 'client':
      headers['api-key'] = key;
      if (bearer && client) headers.authorization = `Bearer ${client.token}`;
      break;
    case 'noKey':
      if (bearer && client) headers.authorization = `Bearer ${client.token}`;
      break;
    case 'badKey':
      headers['api-key'] = 'sk_fuzz_not_a_key_0000000000000000';
      if (bearer && client) headers.authorization = `Bearer ${client.token}`;
      break;
    case 'noToken':
      headers['api-key'] = key;
      break;
    case 'garbageToken':
      headers['api-key'] = key;
      headers.authorization = 'Bearer not.a.jwt';
      break;
    case 'badToken':
      headers['api-key'] = key;
      headers.authorization = `Bearer ${forgedToken(client?.token)}`;
      break;
  }
  return headers;
}

export async function send(
  target: Target,
  doc: Json,
  op: Operation,
  request: Pick<FuzzRequest, 'params' | 'query' | 'body'>,
  headers: Record<string, string>,
): Promise<Sent> {
  const url = buildUrl(doc, op.path, request.params, request.query);
  const all = { ...headers };
  let payload: string | undefined;
  if (request.body && 'json' in request.body) {
    payload = JSON.stringify(request.body.json);
    all['content-type'] = 'application/json';
  } else if (request.body) {
    payload = request.body.raw;
    all['content-type'] = request.body.contentType;
  }
  const options: InjectOptions = { method: op.method as InjectOptions['method'], url, headers: all };
  if (payload !== undefined) options.payload = payload;
  const response = await target.inject(options);
  return { method: op.method, url, headers: all, payload, response };
}

/** `data.id` or `id` of an answer, when it is a string. */
export function idOf(body: unknown): string | undefined {
  const b = body as Json;
  const id = b?.data?.id ?? b?.id;
  return typeof id === 'string' ? id : undefined;
}

export function parseJson(text: string): unknown {
  try { return JSON.parse(text); } catch { return undefined; }
}

/** Shortens long strings (a 100k-character field) for display. */
export function shorten(text: string | undefined, max = 600): string {
  if (text === undefined) return '';
  const compact = text.replace(/(.)\1{49,}/g, (run, c: string) => `${c.repeat(8)}…(${run.length}×'${c}')`);
  return compact.length > max ? `${compact.slice(0, max)}…(${text.length} chars)` : compact;
}

/** Headers for display: keys and tokens named, not shown. */
export function describeHeaders(headers: Record<string, string>, target: Target, client?: Client): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'api-key') out[name] = value === target.apiKey ? '<tenant 1 Api-Key>' : value === target.otherApiKey ? '<tenant 2 Api-Key>' : value;
    else if (name === 'operator-key') out[name] = value === target.operatorKey ? '<the Operator-Key>' : value;
    else if (name === 'authorization') {
      out[name] = client && value === `Bearer ${client.token}` ? 'Bearer <the client\'s access token>'
        : value === `Bearer ${target.metricsToken}` ? 'Bearer <the metrics token>'
        : value.length > 40 ? 'Bearer <a JWT signed with another secret>' : value;
    }
    else out[name] = value;
  }
  return out;
}

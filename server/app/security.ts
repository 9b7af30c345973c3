import cors from '@fastify/cors';
import fastifyJwt from '@fastify/jwt';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../platform/config.js';
import { hashApiKey } from '../platform/auth/api-keys.js';
import { credentialTag } from '../platform/auth/credential-cache.js';
import type { Actor, Services, StaffActor, Tenant } from '../platform/context.js';
import { forbidden, notFound, unauthorized } from '../platform/errors.js';
import { consume } from '../platform/rate-limit.js';
import { providerNamed } from '../domain/money/webhooks.js';
import type { OperationMeta, SecurityRequirement } from '../platform/openapi.js';
import { grantFor } from '../domain/staff/permissions.js';

export interface AccessTokenClaims {
  sub: string;
  tid: string;
  /** Whose token: a client's passes client calls only, a staff member's staff calls only. */
  kind: 'client' | 'staff';
  sv: number;
  jti: string;
  /** The session (refresh token family) the token belongs to, if it has one: ending the session revokes it. */
  sid?: string;
  iat: number;
  exp: number;
}

export interface Caller {
  tenant: Tenant;
  actor: Actor;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    /** The body's exact bytes, kept for routes that verify a signature over them. */
    rawBody?: Buffer;
  }
}

/** The Api-Key header, or 401 when there is none. */
function apiKeyOf(request: FastifyRequest): string {
  const header = request.headers['api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw unauthorized('The Api-Key header is required', 'MISSING_API_KEY');
  return key;
}

/**
 * The tenant of an Api-Key and what a bearer token's claims need checked against the database:
 * whether its id or its session (`sid`) is revoked, and the session version of the client it names. Read in one query
 * (one round trip, not three), then kept in the credential cache until the database announces a
 * change to any of them (the key revoked, the company changed, the token revoked, the client's
 * session ended): a caller's next requests cost no round trip for it.
 */
async function tenantAndToken(services: Services, key: string, claims: AccessTokenClaims | undefined) {
  const keyHash = hashApiKey(key);
  return services.credentials.read(`${keyHash}|${claims?.kind ?? ''}|${claims?.jti ?? ''}`, () => readTenantAndToken(services, keyHash, claims),
    ({ tenant }) => [credentialTag.apiKey(keyHash), credentialTag.tenant(tenant.id),
      ...(claims ? [credentialTag.token(claims.jti)] : []), ...(claims?.sid ? [credentialTag.token(claims.sid)] : []),
      ...(claims?.kind === 'client' ? [credentialTag.client(claims.sub)] : [])]);
}

async function readTenantAndToken(services: Services, keyHash: string, claims: AccessTokenClaims | undefined) {
  const row = await services.db.selectFrom('api_keys')
    .innerJoin('companies', 'companies.id', 'api_keys.tenant_id')
    // The project of the company's Firebase config (set by the platform operator) is the one its
    // clients' Firebase ID tokens must be issued for; a company without one keeps its older project.
    .select((eb) => ['companies.id', 'companies.name', 'companies.subdomain', 'api_keys.mode',
      eb.fn.coalesce(eb.ref('companies.firebase_config', '->>').key('projectId'), eb.ref('companies.firebase_project_id')).as('firebase_project_id')])
    .$if(claims !== undefined, (qb) => qb.select((eb) => eb.exists(eb.selectFrom('revoked_tokens').select('revoked_tokens.jti')
      // A session ended (logout, a refresh token reused) is a revoked row of its id: every token of it stops.
      .where('revoked_tokens.jti', 'in', claims!.sid ? [claims!.jti, claims!.sid] : [claims!.jti])
      .whereRef('revoked_tokens.tenant_id', '=', 'companies.id')).as('token_revoked')))
    .$if(claims?.kind === 'client', (qb) => qb.select((eb) => eb.selectFrom('clients').select('clients.session_version')
      .whereRef('clients.tenant_id', '=', 'companies.id').where('clients.id', '=', claims!.sub)
      .where('clients.deleted_at', 'is', null).where('clients.is_active', '=', true).as('client_session_version')))
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst() as { id: string; name: string; subdomain: string; mode: Tenant['apiKeyMode']; firebase_project_id: string | null;
      token_revoked?: boolean; client_session_version?: number | null } | undefined;
  if (!row) throw unauthorized('The Api-Key is not valid', 'INVALID_API_KEY');
  const tenant: Tenant = { id: row.id, name: row.name, subdomain: row.subdomain, firebaseProjectId: row.firebase_project_id, apiKeyMode: row.mode };
  return { tenant, tokenRevoked: Boolean(row.token_revoked), clientSessionVersion: row.client_session_version ?? null };
}

/** A digest of a key, so comparing two takes the same time whatever their lengths and contents. */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * `operatorKey`: the platform operator's `Operator-Key` header against the configured key, in
 * constant time. Nothing else (an Api-Key, a bearer token) stands in for it.
 */
export async function checkOperatorKey(services: Services, request: FastifyRequest): Promise<void> {
  const header = request.headers['operator-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key && timingSafeEqual(digest(key), digest(services.config.operatorKey))) return;
  // Wrong or missing keys count against the caller's address: past the limit, 429 instead of 401.
  await consume(services.db, `operator-key:address:${request.ip}`, { max: services.config.operatorKeyFailuresPerAddress, windowSeconds: 15 * 60 },
    services.clock.now());
  if (!key) throw unauthorized('The Operator-Key header is required', 'MISSING_OPERATOR_KEY');
  throw unauthorized('The Operator-Key is not valid', 'INVALID_OPERATOR_KEY');
}

/**
 * `metricsToken`: `Authorization: Bearer <METRICS_TOKEN>` against the configured token, in constant
 * time (`GET /metrics`, routed only when a token is configured). Nothing else stands in for it.
 */
export function checkMetricsToken(services: Services, request: FastifyRequest): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) throw unauthorized('A bearer metrics token is required (Authorization: Bearer <METRICS_TOKEN>)', 'MISSING_METRICS_TOKEN');
  const expected = services.config.metricsToken;
  if (expected && timingSafeEqual(digest(match[1]), digest(expected))) return;
  throw unauthorized('The metrics token is not valid', 'INVALID_METRICS_TOKEN');
}

const invalidToken = () => unauthorized('The access token is invalid, expired or revoked', 'INVALID_TOKEN');

/** `Authorization: Bearer <token>`: the token, or undefined when the header is not of that form. */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** A bearer header's claims, if it has one, signed by us and unexpired, of a known kind and with an id (`undefined` if not). */
function signedClaims(request: FastifyRequest): AccessTokenClaims | undefined {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return undefined;
  try {
    // The instance's verifier itself (its options and its cache of verified tokens), not
    // `request.jwtVerify`, which decodes the token once more before verifying it on every request.
    const claims = request.server.jwt.verify<AccessTokenClaims>(token);
    return (claims.kind === 'client' || claims.kind === 'staff') && typeof claims.jti === 'string' && typeof claims.sub === 'string'
      && (claims.sid === undefined || typeof claims.sid === 'string') ? claims : undefined;
  } catch {
    return undefined;
  }
}

/** The bearer token's claims, checked: present, signed by us, unexpired, of this tenant, not revoked. */
function checkedClaims(request: FastifyRequest, claims: AccessTokenClaims | undefined, tenant: Tenant, revoked: boolean): AccessTokenClaims {
  const header = request.headers.authorization;
  if (!header || !/^Bearer\s+\S+/i.test(header)) {
    throw unauthorized('A bearer access token is required (Authorization: Bearer <accessToken>)', 'MISSING_TOKEN');
  }
  // A token only works with the Api-Key of the tenant that issued it.
  if (!claims || claims.tid !== tenant.id || revoked) throw invalidToken();
  return claims;
}

/** The client the token names, if still active and of the token's session (its session version read with the Api-Key). */
function clientActor(claims: AccessTokenClaims, sessionVersion: number | null): Actor {
  if (sessionVersion === null || sessionVersion !== claims.sv) throw invalidToken();
  return { kind: 'client', clientId: claims.sub, tokenId: claims.jti, tokenExpiresAt: new Date(claims.exp * 1000), sessionId: claims.sid };
}

type SignedInStaff = Omit<StaffActor, 'reach' | 'premiumLatitude'>;

/**
 * The staff member the token names, if still active and of the token's session; kept in the
 * credential cache until the database announces a change to the member or to a department.
 */
async function staffOfToken(services: Services, claims: AccessTokenClaims, tenant: Tenant): Promise<SignedInStaff> {
  const member = await services.credentials.read(`staff|${tenant.id}|${claims.sub}`, () => readStaffMember(services, claims, tenant),
    () => [credentialTag.staff(claims.sub), credentialTag.staffOfTenant(tenant.id), credentialTag.tenant(tenant.id)]);
  if (!member || member.session_version !== claims.sv) throw invalidToken();
  return {
    kind: 'staff', staffId: member.id, tenantId: tenant.id, tokenId: claims.jti, tokenExpiresAt: new Date(claims.exp * 1000), sessionId: claims.sid,
    type: member.type, position: member.position, departmentId: member.department_id, branchId: member.branch_id,
  };
}

function readStaffMember(services: Services, claims: AccessTokenClaims, tenant: Tenant) {
  return services.db.selectFrom('staff')
    .leftJoin('departments', 'departments.id', 'staff.department_id')
    .select(['staff.id', 'staff.session_version', 'staff.type', 'staff.position', 'staff.department_id', 'departments.branch_id'])
    .where('staff.tenant_id', '=', tenant.id).where('staff.id', '=', claims.sub).where('staff.is_active', '=', true)
    .executeTakeFirst();
}

/** The permission table's word on this staff member making this call: their reach, or 403. */
function permitted(member: SignedInStaff, operation: OperationMeta): StaffActor {
  const grant = grantFor(operation.operationId, member);
  if (!grant) {
    const action = operation.summary.charAt(0).toLowerCase() + operation.summary.slice(1);
    throw forbidden(`A ${member.position} (${member.type}) may not ${action}`, 'NOT_PERMITTED');
  }
  return { ...member, reach: grant.scope, premiumLatitude: grant.premiumLatitude ?? 0 };
}

/** Which bearer token an operation takes: a client's (`bearerAuth`), a staff member's (`staffAuth`), or none. */
function tokenKindOf(requirements: SecurityRequirement[]): 'client' | 'staff' | undefined {
  if (requirements.length === 0) return undefined;
  if (requirements.every((requirement) => 'bearerAuth' in requirement)) return 'client';
  if (requirements.every((requirement) => 'staffAuth' in requirement)) return 'staff';
  return undefined;
}

const WRONG_KIND = {
  client: 'This call is for signed-in clients; a staff token cannot make it',
  staff: 'This call is for staff; a client token cannot make it',
};

/**
 * The route's security, checked in `onRequest`: before the body is parsed or validated, so an
 * anonymous caller learns nothing about a schema. Requirements name `apiKey`, with `bearerAuth`
 * beside it for a signed-in client or `staffAuth` for a staff member (a valid token of the other
 * kind is 403; a staff member the permission table does not let make the call is 403); the platform
 * operator's calls name `operatorKey` alone (`checkOperatorKey`), the metrics `metricsToken` alone (`checkMetricsToken`); the payment
 * providers' webhook names `webhookSignature` instead, which needs the body and is checked once it
 * is read (`webhookSignatureCheck`).
 */
export function securityHook(services: Services, operation: OperationMeta) {
  const requirements = operation.security;
  const needsApiKey = requirements.length > 0 && requirements.every((requirement) => 'apiKey' in requirement);
  const needsOperatorKey = requirements.length > 0 && requirements.every((requirement) => 'operatorKey' in requirement);
  const needsMetricsToken = requirements.length > 0 && requirements.every((requirement) => 'metricsToken' in requirement);
  const tokenKind = needsApiKey ? tokenKindOf(requirements) : undefined;
  return async (request: FastifyRequest) => {
    // The platform operator's calls name no tenant and no caller within one; nor does the metrics scrape.
    if (needsOperatorKey) return checkOperatorKey(services, request);
    if (needsMetricsToken) return checkMetricsToken(services, request);
    if (!needsApiKey) return;
    const key = apiKeyOf(request);
    // The signature is checked before the query, which reads what the claims name; an invalid
    // Api-Key is still answered before anything about the token.
    const signed = tokenKind ? signedClaims(request) : undefined;
    const { tenant, tokenRevoked, clientSessionVersion } = await tenantAndToken(services, key, signed);
    let actor: Actor = { kind: 'anonymous' };
    if (tokenKind) {
      // The token is checked as what it is (401 if it is no longer good), then against the call.
      const claims = checkedClaims(request, signed, tenant, tokenRevoked);
      if (claims.kind === 'client') {
        const client = clientActor(claims, clientSessionVersion);
        if (tokenKind !== 'client') throw forbidden(WRONG_KIND.staff, 'WRONG_TOKEN_KIND');
        actor = client;
      } else {
        const member = await staffOfToken(services, claims, tenant);
        if (tokenKind !== 'staff') throw forbidden(WRONG_KIND.client, 'WRONG_TOKEN_KIND');
        actor = permitted(member, operation);
      }
    }
    request.caller = { tenant, actor };
  };
}

/**
 * `webhookSignature`: the payment provider named by the `provider` path parameter checks the
 * request's signature over the body's exact bytes. Runs after the body is read and before it is
 * validated, so an unsigned caller learns nothing about the schema either.
 */
export async function webhookSignatureCheck(services: Services, request: FastifyRequest) {
  const provider = providerNamed(services, (request.params as { provider?: string }).provider);
  if (!provider) throw notFound('Payment provider');
  provider.verifyWebhook(request.headers, request.rawBody ?? Buffer.alloc(0), services.clock.now());
}

/**
 * helmet's headers with its defaults, computed once: they are the same on every answer (no CSP
 * nonces), and helmet builds its middleware anew on every call otherwise.
 */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => { headers[name.toLowerCase()] = String(value); },
    removeHeader: () => {},
  };
  helmet()({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** Every method a route of the contract uses, for CORS preflights. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether a browser page of this origin may call the API: a listed origin (any under `*`), never the opaque `null`. */
export const corsAllows = (allowed: Config['corsOrigins'], origin: string | undefined) =>
  origin !== undefined && origin !== 'null' && (allowed === '*' || allowed.includes(origin));

/**
 * Browser-facing headers (helmet, CORS from the configured allow-list), `Cache-Control: no-store`
 * on every answer that does not set its own (answers carry tokens, keys and clients' data; the
 * few public ones, like a company's logo, say how they may be cached), and the access tokens'
 * signer and verifier: a token must carry `exp` and `iat` and is refused once older than the
 * configured lifetime, whatever its `exp` says.
 */
export const security = fp(async (app, { config }: { config: Config }) => {
  const browserHeaders = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(browserHeaders);
    done();
  });
  await app.register(cors, {
    origin: (origin, callback) => callback(null, corsAllows(config.corsOrigins, origin)),
    methods: METHODS,
    allowedHeaders: ['Content-Type', 'Authorization', 'Api-Key', 'Idempotency-Key', 'Operator-Key', 'X-Request-Id'],
    exposedHeaders: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Content-Disposition', 'X-Content-SHA256', 'Idempotent-Replayed', 'X-Request-Id'],
    maxAge: 600,
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  // @fastify/jwt reads a number of maxAge as seconds.
  await app.register(fastifyJwt, {
    secret: config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: config.jwtTtlSeconds },
    // Verified tokens are kept (up to their expiry, at most 10 minutes, keyed by a SHA-256 of the
    // token) so a caller's next requests skip the parsing and the claims checks. Revocation is
    // checked apart, each time.
    verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'iat'], maxAge: config.jwtTtlSeconds, cache: 10_000 },
  });
}, { name: 'coverline-security', fastify: '5.x' });

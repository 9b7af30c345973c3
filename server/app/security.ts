import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../platform/config.js';
import { hashApiKey } from '../platform/auth/api-keys.js';
import type { Actor, Services, Tenant } from '../platform/context.js';
import { notFound, unauthorized } from '../platform/errors.js';
import { providerNamed } from '../domain/money/webhooks.js';
import type { SecurityRequirement } from '../platform/openapi.js';

export interface AccessTokenClaims {
  sub: string;
  tid: string;
  kind: 'client';
  sv: number;
  jti: string;
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

async function tenantFromApiKey(services: Services, request: FastifyRequest): Promise<Tenant> {
  const header = request.headers['api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw unauthorized('The Api-Key header is required', 'MISSING_API_KEY');
  const row = await services.db.selectFrom('api_keys')
    .innerJoin('companies', 'companies.id', 'api_keys.tenant_id')
    .select(['companies.id', 'companies.name', 'companies.subdomain', 'companies.firebase_project_id', 'api_keys.mode'])
    .where('api_keys.key_hash', '=', hashApiKey(key))
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw unauthorized('The Api-Key is not valid', 'INVALID_API_KEY');
  return { id: row.id, name: row.name, subdomain: row.subdomain, firebaseProjectId: row.firebase_project_id, apiKeyMode: row.mode };
}

const invalidToken = () => unauthorized('The access token is invalid, expired or revoked', 'INVALID_TOKEN');

async function clientFromBearer(services: Services, request: FastifyRequest, tenant: Tenant): Promise<Actor> {
  const header = request.headers.authorization;
  if (!header || !/^Bearer\s+\S+/i.test(header)) {
    throw unauthorized('A bearer access token is required (Authorization: Bearer <accessToken>)', 'MISSING_TOKEN');
  }
  let claims: AccessTokenClaims;
  try {
    claims = await request.jwtVerify<AccessTokenClaims>();
  } catch {
    throw invalidToken();
  }
  // A token only works with the Api-Key of the tenant that issued it.
  if (claims.kind !== 'client' || claims.tid !== tenant.id || typeof claims.jti !== 'string') throw invalidToken();
  const revoked = await services.db.selectFrom('revoked_tokens').select('jti')
    .where('jti', '=', claims.jti).where('tenant_id', '=', tenant.id).executeTakeFirst();
  if (revoked) throw invalidToken();
  const client = await services.db.selectFrom('clients').select(['id', 'session_version'])
    .where('tenant_id', '=', tenant.id).where('id', '=', claims.sub)
    .where('deleted_at', 'is', null).where('is_active', '=', true)
    .executeTakeFirst();
  if (!client || client.session_version !== claims.sv) throw invalidToken();
  return { kind: 'client', clientId: client.id, tokenId: claims.jti, tokenExpiresAt: new Date(claims.exp * 1000) };
}

/**
 * The route's security, checked in `onRequest`: before the body is parsed or validated, so an
 * anonymous caller learns nothing about a schema. Requirements name `apiKey`, with `bearerAuth`
 * beside it for a signed-in client; the payment providers' webhook names `webhookSignature`
 * instead, which needs the body and is checked once it is read (`webhookSignatureCheck`).
 */
export function securityHook(services: Services, requirements: SecurityRequirement[]) {
  const needsApiKey = requirements.length > 0 && requirements.every((requirement) => 'apiKey' in requirement);
  const needsBearer = needsApiKey && requirements.every((requirement) => 'bearerAuth' in requirement);
  return async (request: FastifyRequest) => {
    if (!needsApiKey) return;
    const tenant = await tenantFromApiKey(services, request);
    const actor: Actor = needsBearer ? await clientFromBearer(services, request, tenant) : { kind: 'anonymous' };
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

/** Browser-facing headers (helmet, CORS) and the access tokens' signer and verifier. */
export const security = fp(async (app, { config }: { config: Config }) => {
  await app.register(helmet, { global: true });
  await app.register(cors, {
    origin: config.corsOrigins === '*' ? true : config.corsOrigins,
    allowedHeaders: ['Content-Type', 'Authorization', 'Api-Key', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After', 'Content-Disposition', 'X-Content-SHA256'],
    maxAge: 600,
  });
  await app.register(fastifyJwt, {
    secret: config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: config.jwtTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
}, { name: 'coverline-security', fastify: '5.x' });

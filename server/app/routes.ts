import contentDisposition from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import fp from 'fastify-plugin';
import { handlers } from '../../handlers/index.js';
import type { HandlerMap } from '../platform/handler-types.js';

// Every operation in the contract has its handler, typed from the contract: a missing, extra or misspelt one fails `tsc`.
handlers satisfies HandlerMap;
import { callDatabase, type AuditContext } from '../platform/audit.js';
import type { Actor, HandlerContext, Tenant } from '../platform/context.js';
import type { FileResult, RedirectResult } from '../platform/files.js';
import { idempotent, requestHash, type KeyOwner } from '../platform/idempotency.js';
import { multipartParts } from '../platform/multipart.js';
import { API_PREFIX, documentForRouting, IDEMPOTENCY_KEY_HEADER, operationIndex, type OperationMeta } from '../platform/openapi.js';
import { TenantScope } from '../platform/tenancy.js';
import { checkBody, checkNoNul, discardUnreadBody, type RouteBodyConfig } from './body.js';
import { securityHook, webhookSignatureCheck } from './security.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app serves (method and URL), in registration order. */
    routeTable: { method: string; url: string }[];
  }
}

/** The query parameters each request's URL holds (a parameter with a default is there after validation either way). */
const sentQuery = new WeakMap<FastifyRequest, ReadonlySet<string>>();

/** No tenant yet (an operation without security): a scope that matches no tenant's rows. */
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

/** Whose Idempotency-Keys a caller's are: a signed-in client's or staff member's own; nobody else sends one. */
function keyOwner(actor: Actor): KeyOwner | undefined {
  if (actor.kind === 'client') return { kind: 'client', id: actor.clientId };
  if (actor.kind === 'staff') return { kind: 'staff', id: actor.staffId };
  return undefined;
}

function sendFile(reply: FastifyReply, file: FileResult) {
  reply.type(file.contentType);
  if (file.size !== undefined) reply.header('content-length', file.size);
  if (file.filename) {
    // An ASCII `filename` for every client, the exact name in `filename*`: the header stays 7-bit.
    const fallback = file.filename.replace(/[^\x20-\x7e]/g, '_');
    reply.header('content-disposition', contentDisposition(file.filename, { type: file.disposition ?? 'attachment', fallback }));
  }
  if (file.headers) reply.headers(file.headers);
  return reply.send(file.body);
}

/**
 * Every operation of the bundled contract, routed by fastify-openapi-glue (method, URL and ajv
 * schemas from the contract) to its handler in `handlers/`, behind the security it names; the
 * handler's answer is sent as JSON (in its envelope where the contract has one), a file or a redirect.
 */
export const routes = fp(async (app) => {
  const { services } = app;
  const { config } = services;
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url });
  });

  /**
   * A staff member's calls made signed out that prove who they are with a code or a refresh token:
   * the member is the actor. (Asking for a code proves nothing, so `requestStaffPasswordReset` is
   * not audited; a refresh writes no audited row unless its token was spent already, which the
   * member's row then records.)
   */
  const PROVEN_BY_CODE = new Set(['resetStaffPassword', 'refreshStaffToken']);

  /**
   * What the audit trail records of a call's writes: every call but a read made by a staff member
   * (or, signed out, one proving who they are by a code) or by the platform operator.
   */
  const auditContextOf = (meta: OperationMeta, request: FastifyRequest, caller: { tenant?: Tenant; actor: Actor }): AuditContext | undefined => {
    if (meta.method === 'GET') return undefined;
    const call = { action: meta.operationId, requestId: request.id, address: request.ip ?? null, at: services.clock.now() };
    if (meta.security.length > 0 && meta.security.every((requirement) => 'operatorKey' in requirement)) {
      return { ...call, actorKind: 'operator', actorId: null, actorPosition: null, tenantId: null };
    }
    if (caller.actor.kind === 'staff') {
      return { ...call, actorKind: 'staff', actorId: caller.actor.staffId, actorPosition: caller.actor.position, tenantId: caller.actor.tenantId };
    }
    if (caller.actor.kind === 'anonymous' && caller.tenant && PROVEN_BY_CODE.has(meta.operationId)) {
      return { ...call, actorKind: 'staff', actorId: null, actorPosition: null, actorIsRow: true, tenantId: caller.tenant.id };
    }
    return undefined;
  };

  const route = (meta: OperationMeta) => {
    const handler = (handlers as Record<string, (ctx: HandlerContext, req: any) => Promise<any>>)[meta.operationId];
    if (!handler) throw new Error(`no handler for ${meta.operationId}`);
    const bodyConfig: RouteBodyConfig = { operationId: meta.operationId, rawBody: meta.signed, bodyTypes: meta.bodyTypes };
    return {
      config: bodyConfig,
      onRequest: securityHook(services, meta),
      // A callback hook (Fastify answers what it throws): an async one would cost every request a
      // promise and a turn of the microtask queue.
      preValidation: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        // Before ajv fills in the contract's defaults: which query parameters the caller sent.
        sentQuery.set(request, new Set(Object.keys((request.query ?? {}) as object)));
        checkBody(meta, request);
        if (!meta.signed) {
          checkNoNul(request);
          return done();
        }
        // A signed request's signature is checked over its bytes before anything is read from it.
        webhookSignatureCheck(services, request).then(() => { checkNoNul(request); done(); }).catch(done);
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = request.caller ?? { tenant: undefined as never, actor: { kind: 'anonymous' as const } };
        const audit = auditContextOf(meta, request, caller);
        const tally = request.metricsTally;
        const db = callDatabase(services.db, { audit, onStatement: tally ? () => { tally.statements += 1; } : undefined });
        const ctx: HandlerContext = {
          ...services,
          db,
          tenant: caller.tenant,
          actor: caller.actor,
          scope: new TenantScope(db, caller.tenant?.id ?? NO_TENANT),
        };
        const parts = meta.multipart && request.isMultipart() ? multipartParts(request) : undefined;
        const run = (context: HandlerContext) => handler(context, {
          params: request.params,
          query: request.query,
          body: request.body,
          parts,
          headers: request.headers,
          ip: request.ip,
          sentQuery: sentQuery.get(request) ?? new Set(),
        });
        const answerOf = (result: any) => (meta.envelope ? { statusCode: meta.successStatus, success: true, ...result } : result);
        try {
          const key = meta.idempotencyKey ? request.headers[IDEMPOTENCY_KEY_HEADER] : undefined;
          const owner = keyOwner(caller.actor);
          if (typeof key === 'string' && owner) {
            // Run once per key: the handler's every write (ctx.scope, and ctx.db for the platform's
            // tables) joins one transaction with the stored answer, the exact text sent. An upload's
            // files are a stream read by the work, so its path alone identifies it.
            const fingerprint = requestHash({ params: request.params, query: request.query, body: parts ? null : request.body });
            const answer = await idempotent(ctx.scope, services.clock, { key, operation: meta.operationId, owner, fingerprint }, async (scope) => {
              const result = await run({ ...ctx, db: scope.db, scope });
              if (result?.kind === 'file' || result?.kind === 'redirect' || meta.successStatus === 204) {
                throw new Error(`${meta.operationId} takes an Idempotency-Key but does not answer JSON`);
              }
              // The contract's serializer for the answer, as a plain reply would send it.
              return { status: meta.successStatus, body: String(reply.serializeInput(answerOf(result), String(meta.successStatus), 'application/json')) };
            });
            if (answer.replayed) reply.header('idempotent-replayed', 'true');
            return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
          }
          const result = await run(ctx);
          reply.code(meta.successStatus);
          if (meta.successStatus === 204) return reply.send();
          if (result?.kind === 'redirect') return reply.header('location', (result as RedirectResult).location).send();
          if (result?.kind === 'file') return sendFile(reply, result as FileResult);
          return answerOf(result);
        } finally {
          if (parts) discardUnreadBody(request, config.maxUploadBytes * config.maxUploadFiles);
        }
      },
    };
  };

  const operations = operationIndex();
  await app.register(openapiGlue, {
    // Without a METRICS_TOKEN the metrics are off and their path is not routed (404, as a path the API does not have).
    specification: documentForRouting(undefined, { production: config.production, without: services.metrics ? [] : ['getMetrics'] }),
    prefix: API_PREFIX,
    operationResolver: (operationId: string) => {
      const meta = operations.get(operationId);
      if (!meta) throw new Error(`operation ${operationId} is not in the contract`);
      // glue fills in method, url and schema; the resolver adds the handler and security.
      return route(meta) as any;
    },
  });
}, { name: 'coverline-routes', fastify: '5.x', dependencies: ['coverline-services', 'coverline-body', 'coverline-errors'] });

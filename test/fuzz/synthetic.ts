import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Json } from './spec.js';
import type { Client, Target } from './target.js';

/**
 * A tiny contract with the shapes the real one will grow (a collection with POST, `/{id}` with
 * GET/PATCH/DELETE, a body field `thingId`) and an in-memory server for it, sound or with planted
 * faults. Today's contract has no id-taking operation: this is how the generic parts of the
 * fuzzer and the access matrix (follow-up GETs, creating resources, the 404 matrix) are proven.
 */

const error = { $ref: '#/components/responses/Error' };
const thingId = { name: 'thingId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const bearer = [{ apiKey: [], bearerAuth: [] }];
const json = (schema: Json) => ({ content: { 'application/json': { schema } } });

export function syntheticDoc(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'synthetic', version: '1' },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Api-Key' }, bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: { type: 'object', required: ['statusCode', 'message', 'error'], properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' }, code: { type: 'string' } } },
        NewThing: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 40, examples: ['Blue box'] } } },
        Thing: { type: 'object', additionalProperties: false, required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } },
        ThingResponse: { type: 'object', required: ['statusCode', 'success', 'data'], properties: { statusCode: { type: 'integer' }, success: { const: true }, data: { $ref: '#/components/schemas/Thing' } } },
        ThingList: { type: 'object', required: ['statusCode', 'success', 'data'], properties: { statusCode: { type: 'integer' }, success: { const: true }, data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
        NewNote: { type: 'object', additionalProperties: false, required: ['thingId', 'text'], properties: { thingId: { type: 'string', format: 'uuid' }, text: { type: 'string', minLength: 1, maxLength: 100 } } },
        NoteResponse: { type: 'object', required: ['statusCode', 'success', 'data'], properties: { statusCode: { type: 'integer' }, success: { const: true }, data: { type: 'object', required: ['id', 'thingId', 'text'], properties: { id: { type: 'string', format: 'uuid' }, thingId: { type: 'string' }, text: { type: 'string' } } } } },
        Message: { type: 'object', required: ['statusCode', 'success', 'message'], properties: { statusCode: { type: 'integer' }, success: { const: true }, message: { type: 'string' } } },
      },
      responses: { Error: { description: 'An error', ...json({ $ref: '#/components/schemas/Error' }) } },
    },
    paths: {
      '/things': {
        get: { operationId: 'listThings', security: bearer, responses: { 200: { description: 'ok', ...json({ $ref: '#/components/schemas/ThingList' }) }, 400: error, 401: error } },
        post: {
          operationId: 'createThing', security: bearer,
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewThing' }) },
          responses: { 201: { description: 'created', ...json({ $ref: '#/components/schemas/ThingResponse' }) }, 400: error, 401: error, 415: error },
        },
      },
      '/things/{thingId}': {
        parameters: [thingId],
        get: { operationId: 'getThing', security: bearer, responses: { 200: { description: 'ok', ...json({ $ref: '#/components/schemas/ThingResponse' }) }, 400: error, 401: error, 404: error } },
        patch: {
          operationId: 'renameThing', security: bearer,
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewThing' }) },
          responses: { 200: { description: 'ok', ...json({ $ref: '#/components/schemas/ThingResponse' }) }, 400: error, 401: error, 404: error, 415: error },
        },
        delete: { operationId: 'deleteThing', security: bearer, responses: { 200: { description: 'ok', ...json({ $ref: '#/components/schemas/Message' }) }, 400: error, 401: error, 404: error } },
      },
      '/notes': {
        post: {
          operationId: 'createNote', security: bearer,
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewNote' }) },
          responses: { 201: { description: 'created', ...json({ $ref: '#/components/schemas/NoteResponse' }) }, 400: error, 401: error, 404: error, 415: error },
        },
      },
    },
  };
}

export interface Faults {
  /** Reads, changes and lists things without the owner's scope. */
  unscoped?: boolean;
  /** DELETE answers 200 but keeps the thing. */
  deleteKeeps?: boolean;
}

class HttpError extends Error {
  constructor(readonly statusCode: number, message: string) { super(message); }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAMES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 500: 'Internal Server Error' };

/** A server for `syntheticDoc()`: two tenants, clients made in memory. */
export async function syntheticTarget(faults: Faults = {}): Promise<Target & { close(): Promise<void> }> {
  const keys: Record<string, string> = { sk_synthetic_t1: 't1', sk_synthetic_t2: 't2' };
  const tokens = new Map<string, { tenant: string; clientId: string }>();
  const things = new Map<string, { id: string; name: string; owner: string; tenant: string }>();
  const notes = new Map<string, { id: string; thingId: string; text: string }>();
  const app = Fastify({ ajv: { customOptions: { coerceTypes: false } } });
  app.setErrorHandler((err: FastifyError | HttpError, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ statusCode: status, message: err.message, error: NAMES[status] ?? 'Error' });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ statusCode: 404, message: 'No such route', error: 'Not Found' }));

  const caller = (req: FastifyRequest) => {
    const tenant = keys[String(req.headers['api-key'] ?? '')];
    if (!tenant) throw new HttpError(401, 'Api-Key missing or unknown');
    const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const who = token ? tokens.get(token) : undefined;
    if (!who || who.tenant !== tenant) throw new HttpError(401, 'bearer token missing or invalid');
    return who;
  };
  const newThing = (body: unknown) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'body must be an object');
    const b = body as Record<string, unknown>;
    const extra = Object.keys(b).filter((k) => k !== 'name');
    if (extra.length) throw new HttpError(400, `body has an unknown property '${extra[0]}'`);
    if (typeof b.name !== 'string' || b.name.length < 1 || b.name.length > 40) throw new HttpError(400, 'body.name must be a string of 1 to 40 characters');
    return b.name;
  };
  const findThing = (req: FastifyRequest, who: { tenant: string; clientId: string }) => {
    const id = (req.params as { thingId: string }).thingId;
    if (!UUID.test(id)) throw new HttpError(400, 'path thingId must be a uuid');
    const thing = things.get(id);
    const visible = thing && (faults.unscoped || (thing.tenant === who.tenant && thing.owner === who.clientId));
    if (!visible) throw new HttpError(404, 'Thing not found');
    return thing;
  };
  const show = (thing: { id: string; name: string }) => ({ id: thing.id, name: thing.name });
  const ok = (reply: FastifyReply, status: number, data: unknown) => reply.code(status).send({ statusCode: status, success: true, data });

  app.get('/api/v1/things', async (req, reply) => {
    const who = caller(req);
    const rows = [...things.values()].filter((t) => faults.unscoped || (t.tenant === who.tenant && t.owner === who.clientId));
    return ok(reply, 200, rows.map(show));
  });
  app.post('/api/v1/things', async (req, reply) => {
    const who = caller(req);
    const thing = { id: randomUUID(), name: newThing(req.body), owner: who.clientId, tenant: who.tenant };
    things.set(thing.id, thing);
    return ok(reply, 201, show(thing));
  });
  app.get('/api/v1/things/:thingId', async (req, reply) => ok(reply, 200, show(findThing(req, caller(req)))));
  app.patch('/api/v1/things/:thingId', async (req, reply) => {
    const who = caller(req);
    const name = newThing(req.body);
    const thing = findThing(req, who);
    thing.name = name;
    return ok(reply, 200, show(thing));
  });
  app.delete('/api/v1/things/:thingId', async (req, reply) => {
    const thing = findThing(req, caller(req));
    if (!faults.deleteKeeps) things.delete(thing.id);
    return reply.code(200).send({ statusCode: 200, success: true, message: 'Deleted' });
  });
  app.post('/api/v1/notes', async (req, reply) => {
    const who = caller(req);
    const b = req.body as Record<string, unknown> | undefined;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new HttpError(400, 'body must be an object');
    const extra = Object.keys(b).filter((k) => k !== 'thingId' && k !== 'text');
    if (extra.length) throw new HttpError(400, `body has an unknown property '${extra[0]}'`);
    if (typeof b.thingId !== 'string' || !UUID.test(b.thingId)) throw new HttpError(400, 'body.thingId must be a uuid');
    if (typeof b.text !== 'string' || b.text.length < 1 || b.text.length > 100) throw new HttpError(400, 'body.text must be a string of 1 to 100 characters');
    const thing = things.get(b.thingId);
    if (!thing || (!faults.unscoped && (thing.tenant !== who.tenant || thing.owner !== who.clientId))) throw new HttpError(404, 'Thing not found');
    const note = { id: randomUUID(), thingId: b.thingId, text: b.text };
    notes.set(note.id, note);
    return ok(reply, 201, note);
  });
  await app.ready();

  return {
    inject: (options) => app.inject(options),
    apiKey: 'sk_synthetic_t1',
    otherApiKey: 'sk_synthetic_t2',
    async newClient(apiKey = 'sk_synthetic_t1'): Promise<Client> {
      const client: Client = { id: randomUUID(), token: `tok_${randomUUID()}`, apiKey, username: `${randomUUID()}@example.com`, password: 'unused' };
      tokens.set(client.token, { tenant: keys[apiKey], clientId: client.id });
      return client;
    },
    close: () => app.close(),
  };
}

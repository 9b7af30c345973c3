import { deepStrictEqual } from 'node:assert';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operationIndex, type OperationMeta } from '../../server/platform/openapi.js';
import { checkAnswer } from '../fuzz/check.js';
import { operations as specOperations } from '../fuzz/spec.js';
import { validatorsFor } from '../fuzz/validators.js';

/** Contract checks every test gets through the harness. */

const operations = [...operationIndex().values()].map((meta) => ({
  meta,
  pattern: new RegExp(`^/api/v1${meta.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The operation a request goes to, by method and URL, as the contract declares it. */
export function operationFor(method: string, url: string): OperationMeta | undefined {
  const path = url.split('?')[0];
  return operations.find((o) => o.meta.method === method.toUpperCase() && o.pattern.test(path))?.meta;
}

export interface Drift {
  requestId: string;
  operationId: string;
  detail: string;
}

const handlerOutput = Symbol('handlerOutput');

/**
 * Watches for answers the serializer had to change: fields the contract does not declare are
 * dropped by it, and values of the wrong type are coerced (a number sent as a string). Either
 * means the handler broke the contract even if the client never sees it; each is recorded.
 */
export function watchResponseDrift(app: FastifyInstance): Drift[] {
  const drifts: Drift[] = [];
  app.addHook('preSerialization', async (request: FastifyRequest & { [handlerOutput]?: unknown }, _reply, payload) => {
    request[handlerOutput] = JSON.parse(JSON.stringify(payload));
    return payload;
  });
  app.addHook('onSend', async (request: FastifyRequest & { [handlerOutput]?: unknown }, _reply, payload) => {
    if (request[handlerOutput] === undefined || typeof payload !== 'string') return payload;
    try {
      deepStrictEqual(JSON.parse(payload), request[handlerOutput]);
    } catch (error) {
      drifts.push({
        requestId: request.id,
        operationId: (request.routeOptions.config as { operationId?: string }).operationId ?? request.url,
        detail: (error as Error).message,
      });
    }
    return payload;
  });
  return drifts;
}

const validators = validatorsFor();
const byOperationId = new Map(specOperations().map((op) => [op.operationId, op]));

/**
 * What is wrong with an answer by the contract: an undeclared status, a body that does not match
 * the schema declared for its status and content type, an error not in the error shape, a 5xx.
 */
export function conformanceProblems(operationId: string, answer: { statusCode: number; headers: Record<string, unknown>; body: string }): string[] {
  const op = byOperationId.get(operationId);
  if (!op) return [`${operationId} is not in the contract`];
  // "Never a 5xx" is the fuzzer's rule; a test may provoke a failure (storage down) on purpose,
  // and a declared 500 in the error shape is within the contract.
  return checkAnswer(validators, op, 'conform', answer).filter((problem) => !problem.startsWith('server error'));
}

import { deepStrictEqual } from 'node:assert';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE } from '../../generated/errors.js';
import { operationsOf } from '../../scripts/error-codes.js';
import { operationIndex, type OperationMeta } from '../../server/platform/openapi.js';
import { checkAnswer } from '../fuzz/check.js';
import { loadSpec, operations as specOperations } from '../fuzz/spec.js';
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

/** Each operation's error codes by status, as the contract lists them (`x-error-codes`). */
const errorCodes = new Map(operationsOf(loadSpec()).map(({ op }) => [op.operationId, op['x-error-codes'] ?? {}]));

/**
 * An error answer's `code` that its operation does not list for its status; with `codesOf:
 * 'catalogue'` (an example of a response shared by many operations), one the catalogue does not
 * give that status.
 */
function unlistedErrorCode(operationId: string, answer: { statusCode: number; body: string }, codesOf: 'operation' | 'catalogue'): string[] {
  if (answer.statusCode < 400) return [];
  let code: unknown;
  try { code = (JSON.parse(answer.body) as { code?: unknown })?.code; } catch { return []; }
  if (typeof code !== 'string') return [];
  if (codesOf === 'catalogue') {
    const statuses: readonly number[] = (ERROR_CATALOGUE as Record<string, { status: readonly number[] }>)[code]?.status ?? [];
    return statuses.includes(answer.statusCode) ? [] : [`error code ${code} is not a ${answer.statusCode} code of spec/errors.yaml`];
  }
  const listed = errorCodes.get(operationId)?.[String(answer.statusCode)] ?? [];
  return listed.includes(code) ? [] : [`error code ${code} is not in ${operationId}'s x-error-codes for ${answer.statusCode} (listed: ${listed.join(', ') || 'none'})`];
}

/**
 * What is wrong with an answer by the contract: an undeclared status, a body that does not match
 * the schema declared for its status and content type, an error not in the error shape or with a
 * code its operation does not list for the status (`codesOf: 'catalogue'`, for an example of a
 * response many operations share: not in the catalogue with that status), a 5xx.
 */
export function conformanceProblems(operationId: string, answer: { statusCode: number; headers: Record<string, unknown>; body: string },
  codesOf: 'operation' | 'catalogue' = 'operation'): string[] {
  const op = byOperationId.get(operationId);
  if (!op) return [`${operationId} is not in the contract`];
  // "Never a 5xx" is the fuzzer's rule; a test may provoke a failure (storage down) on purpose,
  // and a declared 500 in the error shape is within the contract.
  return [...checkAnswer(validators, op, 'conform', answer).filter((problem) => !problem.startsWith('server error')), ...unlistedErrorCode(operationId, answer, codesOf)];
}

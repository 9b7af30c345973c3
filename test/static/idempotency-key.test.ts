import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IDEMPOTENCY_KEY_PARAMETER, operationsOf, takesIdempotencyKey } from '../../scripts/error-codes.js';
import { operationIndex } from '../../server/platform/openapi.js';

/**
 * Every create a client or staff member calls takes an `Idempotency-Key` (a retry after a timeout
 * must not create twice): a POST answering 201 whose security is a client's or staff member's
 * bearer token declares the shared header parameter, so a new create cannot forget it. The routes
 * apply it to what the contract declares (`OperationMeta.idempotencyKey`), and each such operation
 * documents the replay header on its 201.
 */

const root = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));
const operations = operationsOf(bundle);
const BEARERS = ['bearerAuth', 'staffAuth'];
const signedInCreate = (op: (typeof operations)[number]) => op.method === 'post' && '201' in op.op.responses
  && (op.op.security ?? bundle.security ?? []).some((requirement: Record<string, string[]>) => BEARERS.some((scheme) => scheme in requirement));

describe('Idempotency-Key on every create (spec/components/parameters/IdempotencyKey.yaml)', () => {
  it('every POST answering 201 to a client or staff bearer token takes the Idempotency-Key parameter', () => {
    const creates = operations.filter(signedInCreate);
    expect(creates.length).toBeGreaterThan(40);
    expect(creates.filter(({ op }) => !takesIdempotencyKey(op)).map(({ op }) => op.operationId)).toEqual([]);
  });

  it('only signed-in callers\' POSTs take it, each answering 409 and 422 and saying Idempotent-Replayed on its 201', () => {
    const taking = operations.filter(({ op }) => takesIdempotencyKey(op));
    expect(taking.filter((operation) => !signedInCreate(operation)).map(({ op }) => op.operationId)).toEqual([]);
    const resolve = (node: any): any => (node?.$ref ? resolve(node.$ref.slice(2).split('/').reduce((at: any, key: string) => at[key], bundle)) : node);
    const lacking = taking.filter(({ op }) => !('409' in op.responses) || !('422' in op.responses)
      || !resolve(op.responses['201'])?.headers?.['Idempotent-Replayed']);
    expect(lacking.map(({ op }) => op.operationId)).toEqual([]);
  });

  it('the routes read the same operations from the contract (OperationMeta.idempotencyKey)', () => {
    const flagged = [...operationIndex(bundle).values()].filter((meta) => meta.idempotencyKey).map((meta) => meta.operationId).sort();
    expect(flagged).toEqual(operations.filter(({ op }) => takesIdempotencyKey(op)).map(({ op }) => op.operationId).sort());
    expect(bundle.components.parameters[IDEMPOTENCY_KEY_PARAMETER.split('/').pop()!].name).toBe('Idempotency-Key');
  });
});

import { typedCreateOperations, type TypedCreateOperation } from '../../generated/policy-kinds.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler, HandlerRequest } from '../../server/platform/handler-types.js';
import { issuePolicy, type PolicyCreateRequest } from '../../server/domain/policies/issue.js';

/**
 * Each typed body is one member of the `createPolicy` union (the per-cover money bodies are the
 * MONEY member restricted to one cover), so the same engine serves them. `bodiesFit` fails to
 * compile if a typed body ever stops fitting the union.
 */
const bodiesFit: HandlerRequest<TypedCreateOperation>['body'] extends PolicyCreateRequest ? true : never = true;
void bodiesFit;

/** A per-type create call (`POST /client/policies/auto`, ...): one typed body each, one engine. */
const createTypedPolicy: Handler<TypedCreateOperation> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await issuePolicy(ctx, owner, req.body as PolicyCreateRequest, { by: 'client', id: owner }) };
};

/**
 * The handler of every typed create, by operationId: the list is generated from
 * spec/policy-kinds.yaml (generated/policy-kinds.ts), so a row's create needs no code here.
 */
export const typedCreateHandlers = Object.fromEntries(typedCreateOperations.map((id) => [id, createTypedPolicy])) as
  { [K in TypedCreateOperation]: Handler<K> };

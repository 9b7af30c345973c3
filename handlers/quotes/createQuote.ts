import { quoteOperations, type QuoteOperation } from '../../generated/policy-kinds.js';
import { clientId } from '../../server/platform/actor.js';
import type { PolicyCreateRequest } from '../../server/domain/policies/issue.js';
import { quotePolicy } from '../../server/domain/policies/quote.js';
import type { Handler, HandlerRequest } from '../../server/platform/handler-types.js';

/**
 * A quote's body is a policy create body of its kind, so it is one member of the `createPolicy`
 * union and the policy engine checks and prices it. `bodiesFit` fails to compile if a quote body
 * ever stops fitting the union (and so could price differently from the policy it quotes).
 */
const bodiesFit: HandlerRequest<QuoteOperation>['body'] extends PolicyCreateRequest ? true : never = true;
void bodiesFit;

/** A per-kind quote call (`POST /client/quotes/auto`, ...): prices a create body for the signed-in client as creating the policy would, writing nothing. */
const createQuote: Handler<QuoteOperation> = async (ctx, req) => ({ data: await quotePolicy(ctx, clientId(ctx), req.body as PolicyCreateRequest) });

/**
 * The handler of every quote, by operationId: the list is generated from spec/policy-kinds.yaml
 * (generated/policy-kinds.ts), so a row's quote needs no code here.
 */
export const quoteHandlers = Object.fromEntries(quoteOperations.map((id) => [id, createQuote])) as { [K in QuoteOperation]: Handler<K> };

import { clientId } from '../../server/platform/actor.js';
import type { PolicyCreateRequest } from '../../server/domain/policies/issue.js';
import { quotePolicy } from '../../server/domain/policies/quote.js';
import type { Handler, HandlerRequest } from '../../server/platform/handler-types.js';

/** The per-kind quote calls (`POST /client/quotes/auto`, ...): each takes its kind's policy create body. */
export type QuoteOperation = 'createAutoQuote' | 'createBurglaryQuote' | 'createContractorsAllRisksQuote'
  | 'createErectionAllRisksQuote' | 'createGoodsInTransitQuote' | 'createGroupPersonalAccidentQuote' | 'createHomeQuote'
  | 'createMarineCargoQuote' | 'createProfessionalIndemnityQuote' | 'createPublicLiabilityQuote';

/**
 * A quote's body is a policy create body of its kind, so it is one member of the `createPolicy`
 * union and the policy engine checks and prices it. `bodiesFit` fails to compile if a quote body
 * ever stops fitting the union (and so could price differently from the policy it quotes).
 */
const bodiesFit: HandlerRequest<QuoteOperation>['body'] extends PolicyCreateRequest ? true : never = true;

/** Prices a create body for the signed-in client as creating the policy would, writing nothing. */
export function createQuote<K extends QuoteOperation>(): Handler<K> {
  return (async (ctx, req) => ({ data: await quotePolicy(ctx, clientId(ctx), req.body as PolicyCreateRequest) })) as Handler<K>;
}
void bodiesFit;

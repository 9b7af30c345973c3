// Type-level checks, run by `npm run typecheck` (not by Jest): the handler map must cover the contract.
import { handlers } from '../../../handlers/index.js';
import type { HandlerMap } from '../../../server/platform/handler-types.js';

const { signUp: _left, ...withoutSignUp } = handlers;
// @ts-expect-error a map missing an operation of the contract is not a HandlerMap
export const incomplete: HandlerMap = withoutSignUp;

// @ts-expect-error an operationId the contract does not have is refused too
export const extra = { ...handlers, deleteEverything: async () => ({}) } satisfies HandlerMap;

// @ts-expect-error a handler answering the wrong shape does not fit its operation
export const wrongShape: HandlerMap['getHealth'] = async () => ({ status: 'fine' });

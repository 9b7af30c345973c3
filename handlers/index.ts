import { authHandlers } from './auth/index.js';
import { lookupHandlers } from './lookups/index.js';
import { systemHandlers } from './system/index.js';
import type { HandlerMap } from './types.js';

/** Every operation in the contract, by operationId: a missing, extra or misspelt one fails `tsc`. */
export const handlers = {
  ...systemHandlers,
  ...authHandlers,
  ...lookupHandlers,
} satisfies HandlerMap;

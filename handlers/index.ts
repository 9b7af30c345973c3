import { getHealth } from './system/getHealth.js';
import { getOpenApiDocument } from './system/getOpenApiDocument.js';
import type { HandlerMap } from './types.js';

/** Every operation in the contract, by operationId: a missing or misspelt one fails `tsc`. */
export const handlers = {
  getHealth,
  getOpenApiDocument,
} satisfies HandlerMap;

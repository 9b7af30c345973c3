import { getHealth } from './getHealth.js';
import { getOpenApiDocument } from './getOpenApiDocument.js';

export const systemHandlers = { getHealth, getOpenApiDocument };

import { getHealth } from './getHealth.js';
import { getMetrics } from './getMetrics.js';
import { getOpenApiDocument } from './getOpenApiDocument.js';

export const systemHandlers = { getHealth, getMetrics, getOpenApiDocument };

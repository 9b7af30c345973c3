import { getHealth } from './getHealth.js';
import { getMetrics } from './getMetrics.js';
import { getOpenApiDocument } from './getOpenApiDocument.js';
import { getReadiness } from './getReadiness.js';

export const systemHandlers = { getHealth, getReadiness, getMetrics, getOpenApiDocument };

import { publishedDocument } from '../../server/platform/openapi.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The bundled contract, as SDK generators and the docs site read it. */
export const getOpenApiDocument: Handler<'getOpenApiDocument'> = async () => publishedDocument() as any;

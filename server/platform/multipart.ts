import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { Part } from './files.js';

/** PostgreSQL text cannot hold a NUL: a part's name, file name or value with one is a 400. */
function noNul(value: string, what: string) {
  if (value.includes('\u0000')) throw new ApiError(400, 'VALIDATION_ERROR', `${what} must not contain a NUL character`);
  return value;
}

/** A multipart request's parts as plain values; Fastify's limits still apply (413 past them). */
export async function* multipartParts(request: FastifyRequest): AsyncIterable<Part> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      yield {
        kind: 'file', field: noNul(part.fieldname, 'a part name'), filename: noNul(part.filename, `body.${part.fieldname} file name`),
        mimetype: noNul(part.mimetype, `body.${part.fieldname} content type`), stream: part.file,
      };
    } else {
      yield { kind: 'field', field: noNul(part.fieldname, 'a part name'), value: noNul(String(part.value), `body.${part.fieldname}`) };
    }
  }
}

import type { FastifyRequest } from 'fastify';
import type { Part } from './files.js';

/** A multipart request's parts as plain values; Fastify's limits still apply (413 past them). */
export async function* multipartParts(request: FastifyRequest): AsyncIterable<Part> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      yield { kind: 'file', field: part.fieldname, filename: part.filename, mimetype: part.mimetype, stream: part.file };
    } else {
      yield { kind: 'field', field: part.fieldname, value: String(part.value) };
    }
  }
}

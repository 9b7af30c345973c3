import type { Readable } from 'node:stream';

/** What a handler returns for an operation whose answer is a file or a page rather than JSON. */
export interface FileResult {
  kind: 'file';
  body: Readable | Buffer;
  contentType: string;
  /** The name offered to the user's browser; sent in a safe Content-Disposition. */
  filename?: string;
  size?: number;
  disposition?: 'attachment' | 'inline';
  /** Further response headers (an integrity digest, caching rules). */
  headers?: Record<string, string>;
}

/** What a handler returns for an operation whose answer is a redirect (a form post's 303). */
export interface RedirectResult {
  kind: 'redirect';
  /** Where to: a path of this API, or an absolute URL. */
  location: string;
}

/** One part of a multipart body, without Fastify's types. */
export type Part =
  | { kind: 'file'; field: string; filename: string; mimetype: string; stream: Readable }
  | { kind: 'field'; field: string; value: string };

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

/** A stored file of one reader's, as a download: an attachment, never cached, with its SHA-256. */
export function storedFileDownload(file: { body: Readable; content_type: string; name: string; size: number | string | bigint; sha256: string }): FileResult {
  return {
    kind: 'file',
    body: file.body,
    contentType: file.content_type,
    filename: file.name,
    disposition: 'attachment',
    size: Number(file.size),
    headers: { 'x-content-sha256': file.sha256, 'cache-control': 'private, no-store' },
  };
}

/** A PDF made for one reader (a receipt), as a download never cached. */
export function privatePdfDownload(pdf: Readable | Buffer, filename: string): FileResult {
  return { kind: 'file', body: pdf, contentType: 'application/pdf', filename, disposition: 'attachment', headers: { 'cache-control': 'private, no-store' } };
}

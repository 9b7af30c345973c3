import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { HandlerContext } from '../../platform/context.js';
import type { DocumentRow, DocumentsTable } from '../../platform/db/schema.js';
import { ApiError, badRequest } from '../../platform/errors.js';
import { ObjectTooLargeError, type FileStorage } from '../../platform/storage/storage.js';

/**
 * Storing uploaded files as a client's documents, in pieces other operations can reuse (an
 * account's profile image is a document too): check the type by the bytes, stream them to storage,
 * then record every file of a request in one transaction, or discard them all.
 */

export type DocumentContentType = DocumentsTable['content_type'];

/** What file-type detects -> the content type a document is stored with. */
const ALLOWED: Record<string, DocumentContentType> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic', // file-type says image/heif for some HEIC brands: both are the same container
};
export const DOCUMENT_TYPES = Object.values(ALLOWED);
const TYPE_NAMES: Record<DocumentContentType, string> = {
  'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'image/heic': 'HEIC',
};

/** Enough leading bytes for every allowed type's signature (file-type's own default sample size). */
const SAMPLE_BYTES = 4100;

/** One file as it arrives: a name from the client (untrusted) and its bytes as a stream. */
export interface IncomingFile {
  filename: string | undefined;
  stream: Readable;
}

/** A file whose bytes are in storage but which has no row yet. */
export interface StoredFile {
  id: string;
  key: string;
  name: string;
  contentType: DocumentContentType;
  size: number;
  sha256: string;
}

export function storageOf(ctx: Pick<HandlerContext, 'storage'>): FileStorage {
  if (!ctx.storage) throw new Error('no document storage configured');
  return ctx.storage;
}

/**
 * The name offered back on download: no folders (`../`, `C:\`), no control or bidi-override
 * characters, no leading dots, at most 255 characters; `document.<ext>` when nothing is left.
 */
export function safeFilename(original: string | undefined, contentType?: DocumentContentType): string {
  const base = (original ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .replace(/^[.\s]+/, '');
  const characters = Array.from(cleaned); // code points: never cut a surrogate pair in half
  if (characters.length > 255) {
    const dot = cleaned.lastIndexOf('.');
    const extension = dot > 0 ? Array.from(cleaned.slice(dot)).slice(0, 16) : [];
    return [...characters.slice(0, 255 - extension.length), ...extension].join('');
  }
  if (cleaned || !contentType) return cleaned;
  const extension = Object.entries(ALLOWED).find(([, mime]) => mime === contentType)![0];
  return `document.${extension}`;
}

/** How messages name the n-th file of a request: `files[1] "notes.pdf"`. */
export const fileLabel = (index: number, filename: string | undefined) =>
  `files[${index}] ${JSON.stringify(safeFilename(filename))}`;

/**
 * Reads just the first bytes to learn the type, then hands back a stream that replays them
 * followed by the rest: the file is never held in memory whole.
 */
async function sniff(source: Readable) {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < SAMPLE_BYTES) {
    const next = await iterator.next();
    if (next.done) { ended = true; break; }
    head.push(next.value);
    length += next.value.length;
  }
  const sample = Buffer.concat(head);
  const detected = length > 0 ? await (await import('file-type')).fileTypeFromBuffer(sample) : undefined;
  async function* replay() {
    try {
      if (length > 0) yield sample;
      while (!ended) {
        const next = await iterator.next();
        if (next.done) ended = true;
        else yield next.value as Buffer;
      }
    } finally {
      // Stopped early (an error downstream): release the source too.
      if (!ended) await iterator.return?.();
    }
  }
  return { detected, empty: length === 0, stream: Readable.from(replay(), { objectMode: false }) };
}

/**
 * Checks one file's type by its bytes and streams it into storage under `<tenantId>/<id>`. The
 * key is pushed to `keys` before anything is written, so the caller can remove it whatever fails.
 */
export async function storeFile(
  ctx: Pick<HandlerContext, 'config' | 'storage' | 'tenant'>,
  file: IncomingFile,
  options: { label: string; keys: string[]; allowed?: DocumentContentType[] },
): Promise<StoredFile> {
  const storage = storageOf(ctx);
  const maxBytes = ctx.config.maxUploadBytes;
  const allowed = options.allowed ?? DOCUMENT_TYPES;
  // Multipart's size limit truncates the file and emits `limit` (perhaps already, while earlier
  // files were being stored): fail the stream instead of storing a truncated file.
  const truncated = () => (file.stream as Readable & { truncated?: boolean }).truncated === true;
  if (truncated()) throw fileTooLarge(options.label, maxBytes);
  file.stream.once('limit', () => file.stream.destroy(fileTooLarge(options.label, maxBytes)));
  // What broke the upload itself (busboy reports a cut-off part as an 'error' event on it).
  let sourceError: unknown;
  file.stream.on('error', (error) => { sourceError ??= error; });

  const { detected, empty, stream } = await sniff(file.stream);
  const contentType = detected ? ALLOWED[detected.ext] : undefined;
  if (empty) throw new ApiError(400, 'EMPTY_FILE', `${options.label} is empty`);
  if (!contentType || !allowed.includes(contentType)) {
    stream.destroy();
    const names = allowed.map((type) => TYPE_NAMES[type]);
    const list = `${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names[names.length - 1]}`;
    const found = detected ? `its content is ${detected.mime}` : 'its content was not recognised';
    throw new ApiError(415, 'UNSUPPORTED_FILE_TYPE', `${options.label} is not a ${list} file (${found})`);
  }

  const id = randomUUID();
  const key = `${ctx.tenant.id}/${id}`;
  options.keys.push(key);
  try {
    const { size, sha256 } = await storage.put(key, stream, maxBytes, { contentType });
    if (truncated()) throw fileTooLarge(options.label, maxBytes);
    return { id, key, name: safeFilename(file.filename, contentType), contentType, size, sha256 };
  } catch (error) {
    if (error instanceof ObjectTooLargeError) throw fileTooLarge(options.label, maxBytes);
    // Anything but the upload's own failure is storage's (a disk, a network): a 500, whatever it says.
    if (!(error instanceof ApiError) && error !== sourceError && error && typeof error === 'object') storageFailures.add(error);
    throw error;
  }
}

const storageFailures = new WeakSet<object>();

const fileTooLarge = (label: string, maxBytes: number) =>
  new ApiError(413, 'FILE_TOO_LARGE', `${label} is larger than ${maxBytes} bytes`);

/** Records stored files as the client's documents, all in one transaction; `uploadedByStaffId` when staff uploaded them for the client. */
export async function recordDocuments(ctx: Pick<HandlerContext, 'clock' | 'scope'>, clientId: string, files: StoredFile[], uploadedByStaffId: string | null = null): Promise<DocumentRow[]> {
  const now = ctx.clock.now();
  return ctx.scope.transaction((scope) => scope.insertInto('documents', files.map((file) => ({
    id: file.id,
    client_id: clientId,
    name: file.name,
    content_type: file.contentType,
    size: file.size,
    sha256: file.sha256,
    storage_key: file.key,
    uploaded_by_staff_id: uploadedByStaffId,
    created_at: now,
    updated_at: now,
  }))).returningAll().execute());
}

/** Removes the bytes of a failed request; each removal is tried even if another fails. */
export async function discardStored(ctx: Pick<HandlerContext, 'storage'>, keys: string[]): Promise<void> {
  const storage = storageOf(ctx);
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
}

/** Errors of the multipart parser -> the caller's mistake they stand for. */
export function multipartError(error: unknown, maxFiles: number, maxBytes?: number): unknown {
  if (error instanceof ApiError || (error && typeof error === 'object' && storageFailures.has(error))) return error;
  const code = (error as { code?: string })?.code;
  const message = String((error as Error)?.message ?? '');
  switch (code) {
    case 'FST_FILES_LIMIT':
      return new ApiError(413, 'TOO_MANY_FILES', `At most ${maxFiles} files can be uploaded at once`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The multipart body has too many parts');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError(413, 'FILE_TOO_LARGE', maxBytes ? `A file is larger than ${maxBytes} bytes` : 'A file is larger than the upload limit');
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('The multipart body is malformed or incomplete', 'MALFORMED_MULTIPART');
  }
  // busboy's own: a missing boundary, a part cut short, an unexpected end of the body.
  if (/multipart|boundary|terminated early|unexpected end|malformed/i.test(message)) {
    return badRequest('The multipart body is malformed or incomplete', 'MALFORMED_MULTIPART');
  }
  return error;
}

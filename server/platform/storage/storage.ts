import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/**
 * Where uploaded bytes live, behind one small interface so the disk and S3 drivers are
 * interchangeable (and the handlers never know which one they talk to).
 */
export interface FileStorage {
  /**
   * Streams `source` into the object `key`, computing its size and SHA-256 on the way. The object
   * only appears when the whole stream was read: on any error (the source failing, more than
   * `maxBytes`, the disk or the network) nothing is left under `key` and the error is rethrown.
   */
  put(key: string, source: Readable, maxBytes: number, options?: { contentType?: string }): Promise<StoredObject>;
  /** The object's bytes; rejects with `ObjectNotFoundError` when there is none. */
  get(key: string): Promise<Readable>;
  /** Removes the object; a missing one is not an error (retries and clean-ups stay simple). */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export interface StoredObject {
  size: number;
  /** Lowercase hex. */
  sha256: string;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the object is larger than ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/**
 * Keys are relative, slash-separated names made of safe segments (`<tenantId>/<documentId>`): no
 * `..`, no leading slash, no backslashes, so a key can never reach outside the storage root.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
export function assertValidKey(key: string): void {
  const segments = key.split('/');
  if (segments.length > 8 || !segments.every((segment) => SEGMENT.test(segment) && !segment.includes('..'))) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
}

/** Passes bytes through while counting and hashing them; fails once more than `maxBytes` went by. */
export class Meter extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new ObjectTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** Only meaningful once the stream has ended. */
  result(): StoredObject {
    return { size: this.size, sha256: this.hash.digest('hex') };
  }
}

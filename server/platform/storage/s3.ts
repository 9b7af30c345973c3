import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { pipeline, type Readable } from 'node:stream';
import { assertValidKey, Meter, ObjectNotFoundError, type FileStorage, type StoredObject } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, ...); unset means AWS. */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Normally unset: the standard AWS chain (env, shared files, instance role) supplies them. */
  credentials?: S3ClientConfig['credentials'];
}

/** The AWS SDK (some 20 MB), loaded by the first S3 call: a server storing files locally never needs it. */
const sdk = async () => {
  const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return { ...s3, Upload: storage.Upload };
};

const isMissing = (error: any) =>
  error?.name === 'NoSuchKey' || error?.name === 'NotFound' || error?.$metadata?.httpStatusCode === 404;

/**
 * Objects in an S3 (or S3-compatible) bucket. Uploads stream through lib-storage, which holds at
 * most a few 5 MiB parts in memory and aborts its multipart upload on failure, so an object only
 * exists once the whole stream was sent.
 */
export class S3FileStorage implements FileStorage {
  readonly bucket: string;
  readonly #options: S3StorageOptions;
  #client?: Promise<S3Client>;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.#options = options;
  }

  /** The S3 client, made by the first call. */
  client(): Promise<S3Client> {
    const options = this.#options;
    this.#client ??= sdk().then(({ S3Client }) => new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }));
    return this.#client;
  }

  async put(key: string, source: Readable, maxBytes: number, options: { contentType?: string } = {}): Promise<StoredObject> {
    assertValidKey(key);
    const meter = new Meter(maxBytes);
    // The source's errors (an aborted request, a size limit) reach the upload through the meter.
    pipeline(source, meter, () => {});
    const [{ Upload }, client] = await Promise.all([sdk(), this.client()]);
    const upload = new Upload({
      client,
      queueSize: 2,
      leavePartsOnError: false,
      params: { Bucket: this.bucket, Key: key, Body: meter, ContentType: options.contentType ?? 'application/octet-stream' },
    });
    try {
      await upload.done();
    } catch (error) {
      source.destroy();
      meter.destroy();
      await upload.abort().catch(() => {});
      throw error;
    }
    return meter.result();
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      const answer = await (await this.client()).send(new (await sdk()).GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return answer.Body as Readable;
    } catch (error) {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await (await this.client()).send(new (await sdk()).DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await (await this.client()).send(new (await sdk()).HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

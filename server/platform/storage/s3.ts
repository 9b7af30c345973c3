import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
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

const isMissing = (error: any) =>
  error?.name === 'NoSuchKey' || error?.name === 'NotFound' || error?.$metadata?.httpStatusCode === 404;

/**
 * Objects in an S3 (or S3-compatible) bucket. Uploads stream through lib-storage, which holds at
 * most a few 5 MiB parts in memory and aborts its multipart upload on failure, so an object only
 * exists once the whole stream was sent.
 */
export class S3FileStorage implements FileStorage {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  async put(key: string, source: Readable, maxBytes: number, options: { contentType?: string } = {}): Promise<StoredObject> {
    assertValidKey(key);
    const meter = new Meter(maxBytes);
    // The source's errors (an aborted request, a size limit) reach the upload through the meter.
    pipeline(source, meter, () => {});
    const upload = new Upload({
      client: this.client,
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
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return answer.Body as Readable;
    } catch (error) {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

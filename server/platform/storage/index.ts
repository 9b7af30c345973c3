import path from 'node:path';
import type { Config } from '../config.js';
import { LocalFileStorage } from './local.js';
import { S3FileStorage } from './s3.js';
import type { FileStorage } from './storage.js';

export { LocalFileStorage } from './local.js';
export { S3FileStorage } from './s3.js';
export * from './storage.js';

/** The storage the configuration names: S3 when `STORAGE_DRIVER=s3`, else files under DATA_DIR/files. */
export function createStorage(config: Config): FileStorage {
  if (config.storageDriver === 's3') {
    if (!config.s3Bucket) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
    return new S3FileStorage({
      bucket: config.s3Bucket,
      region: config.s3Region,
      endpoint: config.s3Endpoint,
      forcePathStyle: config.s3ForcePathStyle,
    });
  }
  return new LocalFileStorage(path.join(config.dataDir, 'files'));
}

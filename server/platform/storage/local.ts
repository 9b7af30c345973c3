import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, Meter, ObjectNotFoundError, type FileStorage, type StoredObject } from './storage.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * Objects as files under `root` (DATA_DIR/files by default), one per key. Writes go to a
 * temporary name beside the target (same filesystem, so the rename is atomic), are fsynced, and
 * renamed into place only after the whole stream arrived: readers never see half a file.
 */
export class LocalFileStorage implements FileStorage {
  constructor(readonly root: string) {}

  /** The file of a key; keys are checked so none can point outside `root`. */
  pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  // The content type is the row's business here: a file on disk has none.
  async put(key: string, source: Readable, maxBytes: number, _options?: { contentType?: string }): Promise<StoredObject> {
    const target = this.pathOf(key);
    const directory = path.dirname(target);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    // Dot-prefixed and suffixed so a temp file is recognisable (and sweepable) if the process dies.
    const temporary = path.join(directory, `.${path.basename(target)}.${randomUUID()}.partial`);
    const meter = new Meter(maxBytes);
    // Created before the copy starts: a write stream opening its file lazily could create it after
    // a failed copy's clean-up had run, leaving a stray partial file behind.
    const output = await open(temporary, 'wx', 0o600);
    try {
      await pipeline(source, meter, output.createWriteStream());
      // Durable before it becomes visible: fsync the data, then rename into place.
      const written = await open(temporary, 'r+');
      try { await written.sync(); } finally { await written.close(); }
      await rename(temporary, target);
    } catch (error) {
      source.destroy();
      await output.close().catch(() => {});
      await unlink(temporary).catch(() => {});
      throw error;
    }
    await syncDirectory(directory);
    return meter.result();
  }

  async get(key: string): Promise<Readable> {
    // Opened here, not lazily by the stream, so a missing file is an error before any header is sent.
    const file = await open(this.pathOf(key), 'r').catch((error) => {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    });
    return file.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch((error) => {
      if (!isMissing(error)) throw error;
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

/** Makes the rename itself durable; some platforms cannot fsync a directory, which is fine. */
async function syncDirectory(directory: string) {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}

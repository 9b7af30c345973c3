import { jest } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../../server/platform/config.js';
import { createStorage, LocalFileStorage, ObjectNotFoundError, ObjectTooLargeError, S3FileStorage, type FileStorage } from '../../server/platform/storage/index.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { individualBody, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';

import { file, HEIC, JPEG, multipart, PDF, PNG, sha256, TEXT, WEBP, type FormPart } from '../helpers/multipart.js';

/** Every file under a folder, temp files included (so a stray `.partial` fails a test). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath ?? (entry as any).path, entry.name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

let h: Harness;
let dataDir: string;
let filesDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-documents-'));
  filesDir = path.join(dataDir, 'files');
  h = await createHarness({ dataDir });
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => jest.restoreAllMocks());

async function upload(token: string | undefined, parts: FormPart[], options: { truncateAt?: number; apiKey?: string } = {}) {
  const { payload, headers } = multipart(parts, options);
  return h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token, apiKey: options.apiKey });
}

const documentCount = async (clientId?: string) => {
  let query = h.db.selectFrom('documents').select((eb) => eb.fn.countAll<string>().as('n'));
  if (clientId) query = query.where('client_id', '=', clientId);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

/** Runs a failing upload and checks it left nothing behind: no row, no object, no temp file. */
async function expectNothingLeftBehind(work: () => Promise<unknown>) {
  const rowsBefore = await documentCount();
  const filesBefore = filesUnder(filesDir).sort();
  await work();
  expect(await documentCount()).toBe(rowsBefore);
  expect(filesUnder(filesDir).sort()).toEqual(filesBefore);
}

describe('uploadDocuments: POST /client/documents', () => {
  it('stores a PDF and answers its File, with the bytes on disk under <tenant>/<id>', async () => {
    const { token, account } = await signUp(h);
    const res = await upload(token, [file('ghana-card.pdf', PDF, 'application/pdf')]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 201, success: true });
    expect(body.data).toHaveLength(1);
    const [doc] = body.data;
    expect(doc).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      contentType: 'application/pdf',
      url: `/api/v1/client/documents/${doc.id}`,
      size: PDF.length,
      name: 'ghana-card.pdf',
      sha256: sha256(PDF),
      uploadedBy: null,
    });
    const row = await h.db.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: h.tenantId, client_id: account.id, storage_key: `${h.tenantId}/${doc.id}` });
    expect(filesUnder(filesDir)).toContain(path.join(h.tenantId, doc.id));
  });

  it.each([
    ['photo.png', PNG, 'image/png'],
    ['photo.jpg', JPEG, 'image/jpeg'],
    ['photo.webp', WEBP, 'image/webp'],
    ['IMG_0001.HEIC', HEIC, 'image/heic'],
  ])('recognises %s by its bytes, whatever Content-Type the part claims', async (name, bytes, expected) => {
    const { token } = await signUp(h);
    const res = await upload(token, [file(name, bytes, 'text/plain')]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data[0]).toMatchObject({ contentType: expected, size: bytes.length, sha256: sha256(bytes) });
  });

  it('stores several files at once, answering them in the order sent', async () => {
    const { token, account } = await signUp(h);
    const res = await upload(token, [file('a.pdf', PDF), file('b.png', PNG), file('c.jpg', JPEG)]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.map((d: any) => [d.name, d.contentType])).toEqual([
      ['a.pdf', 'application/pdf'], ['b.png', 'image/png'], ['c.jpg', 'image/jpeg'],
    ]);
    expect(await documentCount(account.id)).toBe(3);
  });

  it('refuses a text file renamed .pdf with 415, naming it, and keeps nothing', async () => {
    const { token } = await signUp(h);
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, [file('notes.pdf', TEXT, 'application/pdf')]);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE', error: 'Unsupported Media Type' });
      expect(res.json().message).toBe('files[0] "notes.pdf" is not a PDF, JPEG, PNG, WebP or HEIC file (its content was not recognised)');
    });
  });

  it('says which type it found when it is a known but refused one', async () => {
    const { token } = await signUp(h);
    const gif = Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]);
    const res = await upload(token, [file('cat.png', gif)]);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toContain('its content is image/gif');
  });

  it('stores nothing when one good file is followed by a bad one (all or nothing)', async () => {
    const { token, account } = await signUp(h);
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, [file('good.pdf', PDF), file('bad.pdf', TEXT)]);
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toContain('files[1] "bad.pdf"');
    });
    expect(await documentCount(account.id)).toBe(0);
  });

  it('refuses a file over 10 MiB with 413 and keeps nothing, the good files before it included', async () => {
    const { token } = await signUp(h);
    const limit = 10 * 1024 * 1024;
    expect(h.config.maxUploadBytes).toBe(limit);
    const big = Buffer.concat([PNG, Buffer.alloc(limit + 1 - PNG.length)]);
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, [file('small.pdf', PDF), file('huge.png', big)]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', message: `files[1] "huge.png" is larger than ${limit} bytes` });
    });
    // Exactly at the limit is fine.
    const res = await upload(token, [file('exact.png', big.subarray(0, limit))]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data[0].size).toBe(limit);
  });

  it('refuses more than 10 files with 413 and keeps none of them', async () => {
    const { token } = await signUp(h);
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, Array.from({ length: 11 }, (_, i) => file(`page-${i}.pdf`, PDF)));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'TOO_MANY_FILES', message: 'At most 10 files can be uploaded at once' });
    });
    const ten = await upload(token, Array.from({ length: 10 }, (_, i) => file(`page-${i}.pdf`, PDF)));
    expect(ten.statusCode).toBe(201);
    expect(ten.json().data).toHaveLength(10);
  });

  it('leaves neither a row nor a stray file when the body is cut off mid-file', async () => {
    const { token } = await signUp(h);
    const second = Buffer.concat([PNG, randomBytes(200_000)]);
    const whole = multipart([file('first.pdf', PDF), file('second.png', second)]).payload.length;
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, [file('first.pdf', PDF), file('second.png', second)], { truncateAt: whole - 100_000 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'MALFORMED_MULTIPART' });
    });
  });

  it('leaves nothing when storage fails halfway through writing a file', async () => {
    const { token } = await signUp(h);
    const original = LocalFileStorage.prototype.put;
    let calls = 0;
    // The second file's stream dies after some bytes reached the disk: the driver's temp file,
    // and the first file already in place, must both go.
    jest.spyOn(LocalFileStorage.prototype, 'put').mockImplementation(function (this: LocalFileStorage, key, source, max, options) {
      calls += 1;
      if (calls !== 2) return original.call(this, key, source, max, options);
      async function* failing() {
        let sent = 0;
        for await (const chunk of source) {
          yield chunk;
          sent += chunk.length;
          if (sent > 50_000) throw new Error('disk unplugged');
        }
      }
      return original.call(this, key, Readable.from(failing(), { objectMode: false }), max, options);
    });
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, [file('one.pdf', PDF), file('two.png', Buffer.concat([PNG, randomBytes(300_000)]))]);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ statusCode: 500, requestId: expect.any(String), message: 'Internal Server Error', error: 'Internal Server Error', code: 'INTERNAL_ERROR' });
    });
    expect(calls).toBe(2);
  });

  it('removes the stored bytes when recording the rows fails', async () => {
    const { token } = await signUp(h);
    jest.spyOn(TenantScope.prototype, 'transaction').mockRejectedValueOnce(new Error('database went away'));
    await expectNothingLeftBehind(async () => {
      const res = await upload(token, [file('one.pdf', PDF), file('two.png', PNG)]);
      expect(res.statusCode).toBe(500);
    });
  });

  it('reads and drops the rest of a refused upload, so the answer arrives and the connection stays usable', async () => {
    const { token } = await signUp(h);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    // One socket: the second request can only go once the first one's body was fully sent.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = ({ payload, headers }: ReturnType<typeof multipart>) => new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest({
        agent, host: '127.0.0.1', port, method: 'POST', path: '/api/v1/client/documents',
        headers: { ...headers, 'content-length': payload.length, 'api-key': h.apiKey, authorization: `Bearer ${token}` },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.on('error', reject);
      req.end(payload);
    });
    try {
      const refused = await post(multipart([file('scan.pdf', Buffer.alloc(8 * 1024 * 1024, 0x41))]));
      expect(refused).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_FILE_TYPE' } });
      const next = await post(multipart([file('scan.pdf', PDF)]));
      expect(next.status).toBe(201);
    } finally {
      agent.destroy();
    }
  });

  it('answers 400 when no file part is sent, or a field other than files', async () => {
    const { token } = await signUp(h);
    await expectNothingLeftBehind(async () => {
      const empty = await upload(token, []);
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ code: 'NO_FILES' });

      const field = await upload(token, [file('a.pdf', PDF), { field: 'note', data: 'my id card' }]);
      expect(field.statusCode).toBe(400);
      expect(field.json()).toMatchObject({ code: 'UNEXPECTED_FIELD', message: "Unexpected field 'note': send only file parts named files" });

      const otherName = await upload(token, [{ field: 'document', filename: 'a.pdf', data: PDF }]);
      expect(otherName.statusCode).toBe(400);
      expect(otherName.json().message).toBe("Unexpected file 'document': send only file parts named files");

      const emptyFile = await upload(token, [file('blank.pdf', Buffer.alloc(0))]);
      expect(emptyFile.statusCode).toBe(400);
      expect(emptyFile.json()).toMatchObject({ code: 'EMPTY_FILE', message: 'files[0] "blank.pdf" is empty' });
    });
  });

  it('answers 415 to a body that is not multipart', async () => {
    const { token } = await signUp(h);
    const json = await h.call({ method: 'POST', url: '/api/v1/client/documents', token, payload: { files: ['x'] } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(json.json().message).toContain('multipart/form-data');
    const text = await h.call({ method: 'POST', url: '/api/v1/client/documents', token, payload: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
  });

  it('answers 401 without a bearer token, before reading the body', async () => {
    await expectNothingLeftBehind(async () => {
      const res = await upload(undefined, [file('a.pdf', PDF)]);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'MISSING_TOKEN' });
    });
  });
});

describe('downloadDocument: GET /client/documents/{id}', () => {
  it('streams back the same bytes with the stored type, a safe filename and the SHA-256', async () => {
    const { token } = await signUp(h);
    const nasty = '../évil "name".pdf';
    const up = await upload(token, [{ filename: nasty, data: PDF, contentType: 'image/png' }]);
    expect(up.statusCode).toBe(201);
    const doc = up.json().data[0];
    expect(doc.name).toBe('évil "name".pdf');

    const res = await h.call({ method: 'GET', url: doc.url, token });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(res.headers['x-content-sha256']).toBe(sha256(PDF));
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toBe(`attachment; filename="_vil \\"name\\".pdf"; filename*=UTF-8''%C3%A9vil%20%22name%22.pdf`);
    expect(disposition).not.toMatch(/\.\.|\/|[\r\n]|[^\x20-\x7e]/);
  });

  it('strips folders and control characters from names, Windows-style ones too', async () => {
    const { token } = await signUp(h);
    const res = await upload(token, [
      { raw: 'name="files"; filename="C:\\\\Users\\\\kofi\\\\..\\\\id\u0007card.png"', data: PNG },
      { raw: 'name="files"; filename="...."', data: JPEG },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.map((d: any) => d.name)).toEqual(['idcard.png', 'document.jpg']);
  });

  it('answers 404 for an unknown id and 400 for one that is not a UUID', async () => {
    const { token } = await signUp(h);
    const unknown = await h.call({ method: 'GET', url: '/api/v1/client/documents/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', token });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Document not found', error: 'Not Found', code: 'NOT_FOUND' });
    const malformed = await h.call({ method: 'GET', url: '/api/v1/client/documents/not-a-uuid', token });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'params.id must match format "uuid"' });
  });

  it('answers 401 without a token', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/client/documents/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b' });
    expect(res.statusCode).toBe(401);
  });
});

describe('documents of other clients and tenants', () => {
  it('are 404 to download and to delete, and stay there for their owner', async () => {
    const owner = await signUp(h);
    const doc = (await upload(owner.token, [file('deed.pdf', PDF)])).json().data[0];

    const neighbour = await signUp(h);
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    for (const [token, apiKey] of [[neighbour.token, h.apiKey], [foreign.token, h.otherApiKey]] as const) {
      const get = await h.call({ method: 'GET', url: doc.url, token, apiKey });
      expect(get.statusCode).toBe(404);
      expect(get.json().message).toBe('Document not found');
      const del = await h.call({ method: 'DELETE', url: doc.url, token, apiKey });
      expect(del.statusCode).toBe(404);
    }
    // The owner's token with another tenant's Api-Key does not even get that far.
    expect((await h.call({ method: 'GET', url: doc.url, token: owner.token, apiKey: h.otherApiKey })).statusCode).toBe(401);

    const mine = await h.call({ method: 'GET', url: doc.url, token: owner.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(PDF)).toBe(true);
  });
});

describe('deleteDocument: DELETE /client/documents/{id}', () => {
  it('removes the row and the bytes; then download and delete answer 404', async () => {
    const { token } = await signUp(h);
    const doc = (await upload(token, [file('claim-photo.jpg', JPEG)])).json().data[0];
    const key = path.join(h.tenantId, doc.id);
    expect(filesUnder(filesDir)).toContain(key);

    const res = await h.call({ method: 'DELETE', url: doc.url, token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Document deleted' });
    expect(filesUnder(filesDir)).not.toContain(key);
    expect(await h.db.selectFrom('documents').select('id').where('id', '=', doc.id).executeTakeFirst()).toBeUndefined();

    expect((await h.call({ method: 'GET', url: doc.url, token })).statusCode).toBe(404);
    expect((await h.call({ method: 'DELETE', url: doc.url, token })).statusCode).toBe(404);
  });

  it('keeps the row when the bytes cannot be removed, so a retry can finish', async () => {
    const { token } = await signUp(h);
    const doc = (await upload(token, [file('a.pdf', PDF)])).json().data[0];
    jest.spyOn(LocalFileStorage.prototype, 'delete').mockRejectedValueOnce(new Error('EIO'));
    expect((await h.call({ method: 'DELETE', url: doc.url, token })).statusCode).toBe(500);
    expect((await h.call({ method: 'GET', url: doc.url, token })).statusCode).toBe(200);
    expect((await h.call({ method: 'DELETE', url: doc.url, token })).statusCode).toBe(200);
  });

  it('answers 401 without a token and 400 for a malformed id', async () => {
    expect((await h.call({ method: 'DELETE', url: '/api/v1/client/documents/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b' })).statusCode).toBe(401);
    const { token } = await signUp(h);
    expect((await h.call({ method: 'DELETE', url: '/api/v1/client/documents/123', token })).statusCode).toBe(400);
  });
});

// ---- the storage drivers' contract, on the drivers themselves ----

const streamOf = (...chunks: Buffer[]) => Readable.from(chunks, { objectMode: false });
/** A source that sends some bytes, then fails like an aborted upload. */
const failingAfter = (bytes: Buffer) => Readable.from((async function* () {
  yield bytes;
  throw new Error('connection reset');
})(), { objectMode: false });
const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

function storageContract(name: string, make: () => { storage: FileStorage; stray: () => string[] }) {
  describe(`${name} storage driver`, () => {
    let storage: FileStorage;
    let stray: () => string[];
    beforeEach(() => ({ storage, stray } = make()));

    it('puts, gets, tells whether it exists and deletes', async () => {
      const bytes = randomBytes(70_000);
      const key = `tenant-a/${randomBytes(8).toString('hex')}`;
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.put(key, streamOf(bytes.subarray(0, 1000), bytes.subarray(1000)), bytes.length)).toEqual({ size: bytes.length, sha256: sha256(bytes) });
      expect(await storage.exists(key)).toBe(true);
      expect((await read(await storage.get(key))).equals(bytes)).toBe(true);
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await storage.delete(key); // deleting what is not there is fine
    });

    it('leaves nothing when the source fails midway', async () => {
      const key = `tenant-a/${randomBytes(8).toString('hex')}`;
      await expect(storage.put(key, failingAfter(randomBytes(20_000)), 1_000_000)).rejects.toThrow('connection reset');
      expect(await storage.exists(key)).toBe(false);
      expect(stray()).toEqual([]);
    });

    it('refuses more than maxBytes and leaves nothing', async () => {
      const key = `tenant-a/${randomBytes(8).toString('hex')}`;
      await expect(storage.put(key, streamOf(randomBytes(600), randomBytes(600)), 1000)).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect(await storage.exists(key)).toBe(false);
      expect(stray()).toEqual([]);
    });

    it('refuses keys that could leave its root', async () => {
      for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', '', 'a//b', '.hidden']) {
        await expect(storage.put(key, streamOf(Buffer.from('x')), 10)).rejects.toThrow('invalid storage key');
      }
    });
  });
}

const localRoots: string[] = [];
afterAll(() => localRoots.forEach((root) => rmSync(root, { recursive: true, force: true })));
storageContract('local', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'coverline-storage-'));
  localRoots.push(root);
  return { storage: new LocalFileStorage(root), stray: () => filesUnder(root) };
});

describe('local storage driver specifics', () => {
  it('writes through a temp file in the same folder and removes it on error', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'coverline-storage-'));
    const storage = new LocalFileStorage(root);
    let seen: string[] = [];
    const source = Readable.from((async function* () {
      yield randomBytes(10_000);
      // put() creates its temp file before it reads the source: it is there by now, no wait needed.
      seen = filesUnder(root);
      throw new Error('aborted');
    })(), { objectMode: false });
    await expect(storage.put('t/doc', source, 1_000_000)).rejects.toThrow('aborted');
    expect(seen).toEqual([expect.stringMatching(/^t\/\.doc\.[0-9a-f-]+\.partial$/)]);
    expect(filesUnder(root)).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });
});

/** Just enough of S3's REST API (path-style PUT/GET/HEAD/DELETE of objects) to exercise the driver. */
function fakeS3(): Promise<{ server: Server; url: string; objects: Map<string, Buffer> }> {
  const objects = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname).replace(/^\/bucket\//, '');
    const missing = () => {
      res.writeHead(404, { 'content-type': 'application/xml' });
      res.end(req.method === 'HEAD' ? undefined : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
    };
    if (req.method === 'PUT') {
      objects.set(key, Buffer.concat(chunks));
      res.writeHead(200, { etag: '"etag"' });
      return res.end();
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    const object = objects.get(key);
    if (!object) return missing();
    res.writeHead(200, { 'content-length': object.length, 'content-type': 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : object);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () =>
    resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, objects })));
}

describe('S3 storage driver (fake S3 endpoint)', () => {
  let s3: Awaited<ReturnType<typeof fakeS3>>;
  beforeAll(async () => { s3 = await fakeS3(); });
  afterAll(async () => { await new Promise((resolve) => s3.server.close(resolve)); });

  storageContract('s3', () => ({
    storage: new S3FileStorage({
      bucket: 'bucket', region: 'us-east-1', endpoint: s3.url, forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test-secret' },
    }),
    stray: () => [...s3.objects.keys()],
  }));
});

describe('storage configuration', () => {
  const env = (extra: Record<string, string> = {}) => ({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), ...extra });

  it('defaults to files under DATA_DIR/files, 10 MiB and 10 files per upload', () => {
    const config = loadConfig(env());
    expect(config).toMatchObject({ storageDriver: 'local', maxUploadBytes: 10 * 1024 * 1024, maxUploadFiles: 10 });
    const storage = createStorage(config);
    expect(storage).toBeInstanceOf(LocalFileStorage);
    expect((storage as LocalFileStorage).root).toBe(path.join(dataDir, 'files'));
  });

  it('builds the S3 driver from its variables, and refuses S3 without a bucket or an unknown driver', () => {
    const config = loadConfig(env({ STORAGE_DRIVER: 's3', S3_BUCKET: 'docs', S3_REGION: 'eu-west-1', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true', MAX_UPLOAD_BYTES: '2048' }));
    expect(config).toMatchObject({ storageDriver: 's3', s3Bucket: 'docs', s3Region: 'eu-west-1', s3Endpoint: 'http://127.0.0.1:9000', s3ForcePathStyle: true, maxUploadBytes: 2048 });
    const storage = createStorage(config);
    expect(storage).toBeInstanceOf(S3FileStorage);
    expect((storage as S3FileStorage).bucket).toBe('docs');
    expect(() => loadConfig(env({ STORAGE_DRIVER: 's3' }))).toThrow('S3_BUCKET is required when STORAGE_DRIVER=s3');
    expect(() => loadConfig(env({ STORAGE_DRIVER: 'ftp' }))).toThrow('STORAGE_DRIVER must be local or s3');
    expect(() => loadConfig(env({ MAX_UPLOAD_BYTES: 'lots' }))).toThrow('MAX_UPLOAD_BYTES must be a whole number');
  });
});

import { createHash, randomBytes } from 'node:crypto';

/** Multipart bodies and tiny files for upload tests. */

// ---- tiny files whose first bytes are the real signatures (the magic bytes decide the type) ----

export const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
  '1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex');
export const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), randomBytes(64), Buffer.from('ffd9', 'hex')]);
export const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), randomBytes(32)]);
export const HEIC = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic'), randomBytes(32)]);
export const TEXT = Buffer.from('Just some notes, typed in a text editor and renamed to .pdf\n');

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface FormPart { field?: string; filename?: string; contentType?: string; data: Buffer | string; raw?: string }

/**
 * A multipart/form-data body built by hand, so a test can also cut it short (no closing boundary)
 * or use a filename no browser would send. `raw` replaces the Content-Disposition parameters.
 */
export function multipart(parts: FormPart[], options: { truncateAt?: number } = {}) {
  const boundary = `----coverline-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    // Quotes and backslashes escaped the way curl does it.
    const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;
    const disposition = part.raw
      ?? `name="${part.field ?? 'files'}"${part.filename === undefined ? '' : `; filename=${quoted(part.filename)}`}`;
    const type = part.filename === undefined && !part.raw ? '' : `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type}\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(chunks);
  if (options.truncateAt !== undefined) payload = payload.subarray(0, options.truncateAt);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const file = (filename: string, data: Buffer, contentType = 'application/octet-stream'): FormPart => ({ filename, data, contentType });


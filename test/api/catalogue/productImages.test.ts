import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct, multipartBody } from '../../fixtures/builders';

let t: TestApp;
let png2000x1000: Buffer;
let jpeg300x200: Buffer;
beforeAll(async () => {
  t = await startTestApp();
  png2000x1000 = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#3080c0' } }).png().toBuffer();
  jpeg300x200 = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c08030' } }).jpeg().toBuffer();
});
afterAll(() => t.close());

const TABLES = ['product_images', 'op_log'];
const mediaFiles = () => {
  const root = join(t.dir, 'media');
  return existsSync(root) ? readdirSync(root, { recursive: true }).map(String).sort() : [];
};
const createProduct = async () => (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
const uploadMultipart = (code: string, file: { filename: string; contentType: string; bytes: Buffer }, role?: 'agent' | 'checkin') => {
  const form = multipartBody(file);
  return t.call('POST', `/v1/products/${code}/images`, { body: form.body, headers: { 'content-type': form.contentType }, role });
};
const uploadRaw = (code: string, bytes: Buffer, contentType: string, filename = 'photo.png') =>
  t.call('POST', `/v1/products/${code}/images?filename=${encodeURIComponent(filename)}`, { body: bytes, headers: { 'content-type': contentType } });
/** GET through the real server, without a key, keeping the bytes. */
const fetchMedia = (url: string) => t.app.inject({ method: 'GET', url, headers: { host: '127.0.0.1' } });
const sizeOf = async (bytes: Buffer) => {
  const meta = await sharp(bytes).metadata();
  return [meta.width, meta.height];
};

describe('product images', () => {
  it('created the media folder at start, so the first upload is served', () => {
    expect(existsSync(join(t.dir, 'media'))).toBe(true);
  });

  it('stores a multipart upload with 1280, 480 and 240 px variants of the longest side, served under /media without a key', async () => {
    const product = await createProduct();
    const res = await uploadMultipart(product.productCode, { filename: 'harbour.png', contentType: 'image/png', bytes: png2000x1000 });
    expect(res.status).toBe(200);
    const img = res.body.img;
    expect(img.id).toBeGreaterThan(0);
    const expected: [string, number[]][] = [
      [img.itemUrl, [2000, 1000]],
      [img.largeSizeUrl, [1280, 640]],
      [img.mediumSizeUrl, [480, 240]],
      [img.thumbnailUrl, [240, 120]],
    ];
    for (const [url, size] of expected) {
      expect(url).toMatch(/^\/media\/[a-z0-9-]+\/(original|1280|480|240)\.png$/);
      const served = await fetchMedia(url);
      expect(served.statusCode, url).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(await sizeOf(served.rawPayload), url).toEqual(size);
    }
    expect((await fetchMedia(img.itemUrl)).rawPayload.equals(png2000x1000)).toBe(true);
    const row = t.sql.prepare('SELECT original_name, mime_type, width, height FROM product_images WHERE id = ?').get(img.id);
    expect(row).toEqual({ original_name: 'harbour.png', mime_type: 'image/png', width: 2000, height: 1000 });
    const fetched = (await t.call('GET', `/v1/products/${product.productCode}`)).body.product;
    expect(fetched.images).toEqual([img]);
  });

  it('stores a raw image body with the filename from the query, and never upscales a small image', async () => {
    const product = await createProduct();
    const res = await uploadRaw(product.productCode, jpeg300x200, 'image/jpeg', 'small boat.jpg');
    expect(res.status).toBe(200);
    const img = res.body.img;
    expect(img.largeSizeUrl).toMatch(/\/1280\.jpg$/);
    const served = await fetchMedia(img.largeSizeUrl);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(await sizeOf(served.rawPayload)).toEqual([300, 200]);
    expect(await sizeOf((await fetchMedia(img.mediumSizeUrl)).rawPayload)).toEqual([300, 200]);
    expect(await sizeOf((await fetchMedia(img.thumbnailUrl)).rawPayload)).toEqual([240, 160]);
    expect(t.sql.prepare('SELECT original_name FROM product_images WHERE id = ?').get(img.id)).toEqual({ original_name: 'small boat.jpg' });
  });

  it('measures the longest side of a portrait image, and applies EXIF orientation before resizing', async () => {
    const product = await createProduct();
    const portrait = await sharp({ create: { width: 1000, height: 2000, channels: 3, background: '#205020' } }).png().toBuffer();
    const tall = (await uploadRaw(product.productCode, portrait, 'image/png')).body.img;
    expect(await sizeOf((await fetchMedia(tall.largeSizeUrl)).rawPayload)).toEqual([640, 1280]);
    expect(await sizeOf((await fetchMedia(tall.thumbnailUrl)).rawPayload)).toEqual([120, 240]);
    // Stored 400×200 with orientation 6 (rotate 90°): a viewer shows it 200×400.
    const rotated = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#802020' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const img = (await uploadRaw(product.productCode, rotated, 'image/jpeg')).body.img;
    expect(await sizeOf((await fetchMedia(img.thumbnailUrl)).rawPayload)).toEqual([120, 240]);
    expect(t.sql.prepare('SELECT width, height FROM product_images WHERE id = ?').get(img.id)).toEqual({ width: 200, height: 400 });
  });

  it('keeps a GIF original and serves its variants as PNG', async () => {
    const product = await createProduct();
    const gif = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#2040a0' } }).gif().toBuffer();
    const img = (await uploadRaw(product.productCode, gif, 'image/gif', 'anim.gif')).body.img;
    expect(img.itemUrl).toMatch(/\/original\.gif$/);
    expect((await fetchMedia(img.itemUrl)).headers['content-type']).toBe('image/gif');
    const medium = await fetchMedia(img.mediumSizeUrl);
    expect(medium.headers['content-type']).toBe('image/png');
    expect(await sizeOf(medium.rawPayload)).toEqual([480, 240]);
  });

  it('refuses an image over 60 megapixels with 400 PAYLOAD_TOO_LARGE and stores nothing', async () => {
    const product = await createProduct();
    const huge = await sharp({ create: { width: 8000, height: 7600, channels: 3, background: '#000' } }).greyscale().png({ compressionLevel: 9 }).toBuffer();
    const before = [t.snapshot(...TABLES), mediaFiles()];
    const res = await uploadRaw(product.productCode, huge, 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorCode).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.requestStatus.error.errorMessage).toContain('megapixels');
    expect([t.snapshot(...TABLES), mediaFiles()]).toEqual(before);
  });

  it('keeps images in upload order on the product', async () => {
    const product = await createProduct();
    const first = (await uploadRaw(product.productCode, jpeg300x200, 'image/jpeg')).body.img;
    const second = (await uploadRaw(product.productCode, png2000x1000, 'image/png')).body.img;
    expect((await t.call('GET', `/v1/products/${product.productCode}`)).body.product.images.map((i: any) => i.id)).toEqual([first.id, second.id]);
  });

  const refused: [string, () => Promise<{ status: number; body: any }>, string][] = [
    ['a text file sent as a form', () => uploadMultipart(productCode, { filename: 'notes.txt', contentType: 'text/plain', bytes: Buffer.from('not a picture at all') }), 'VALIDATION_ERROR'],
    ['a text file sent raw as image/png', () => uploadRaw(productCode, Buffer.from('not a picture at all'), 'image/png'), 'VALIDATION_ERROR'],
    ['an SVG (it can carry script)', () => uploadRaw(productCode, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'), 'image/svg+xml'), 'VALIDATION_ERROR'],
    ['a truncated PNG', () => uploadRaw(productCode, png2000x1000.subarray(0, 200), 'image/png'), 'VALIDATION_ERROR'],
    ['an empty body', () => uploadRaw(productCode, Buffer.alloc(0), 'image/png'), 'VALIDATION_ERROR'],
    ['a form without a file', () => t.call('POST', `/v1/products/${productCode}/images`, { body: Buffer.from('--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n--b--\r\n'), headers: { 'content-type': 'multipart/form-data; boundary=b' } }), 'VALIDATION_ERROR'],
    ['a JSON body', () => t.call('POST', `/v1/products/${productCode}/images`, { body: { url: 'https://img.example/a.png' } }), 'VALIDATION_ERROR'],
    ['an oversize form upload', () => uploadMultipart(productCode, { filename: 'huge.png', contentType: 'image/png', bytes: oversize }), 'PAYLOAD_TOO_LARGE'],
    ['an oversize raw upload', () => uploadRaw(productCode, oversize, 'image/png'), 'PAYLOAD_TOO_LARGE'],
  ];
  let productCode = '';
  let oversize: Buffer;
  it.each(refused)('refuses %s with 400 and stores nothing (no row, no file)', async (_name, send, errorCode) => {
    if (!productCode) productCode = (await createProduct()).productCode;
    // A real PNG over 15 MiB: noise does not compress.
    if (!oversize) {
      const noise = Buffer.alloc(2400 * 2400 * 3);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
      oversize = await sharp(noise, { raw: { width: 2400, height: 2400, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer();
    }
    expect(oversize.length).toBeGreaterThan(15 * 1024 * 1024);
    const before = [t.snapshot(...TABLES), mediaFiles()];
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.success).toBe(false);
    expect(res.body.requestStatus.error.errorCode).toBe(errorCode);
    expect(res.body.requestStatus.error.errorMessage.length).toBeGreaterThan(5);
    expect([t.snapshot(...TABLES), mediaFiles()]).toEqual(before);
  });

  it('refuses an upload for an unknown or archived product with 404 and stores nothing', async () => {
    const archived = await createProduct();
    await t.call('DELETE', `/v1/products/${archived.productCode}`);
    const before = [t.snapshot(...TABLES), mediaFiles()];
    for (const code of ['PNOPE00', archived.productCode]) {
      const res = await uploadRaw(code, jpeg300x200, 'image/jpeg');
      expect(res.status).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    }
    expect([t.snapshot(...TABLES), mediaFiles()]).toEqual(before);
  });

  it('deletes an image: the row and every file go, and the media URLs answer 404', async () => {
    const product = await createProduct();
    const img = (await uploadRaw(product.productCode, jpeg300x200, 'image/jpeg')).body.img;
    const stem = img.itemUrl.split('/')[2];
    expect(readdirSync(join(t.dir, 'media', stem)).sort()).toEqual(['1280.jpg', '240.jpg', '480.jpg', 'original.jpg']);
    const res = await t.call('DELETE', `/v1/products/${product.productCode}/images/${img.id}`);
    expect(res.status).toBe(200);
    expect(existsSync(join(t.dir, 'media', stem))).toBe(false);
    expect((await fetchMedia(img.thumbnailUrl)).statusCode).toBe(404);
    expect((await t.call('GET', `/v1/products/${product.productCode}`)).body.product.images).toEqual([]);
  });

  it('answers 404 when deleting an image that is not the product’s, 400 for a non-numeric id, and changes nothing', async () => {
    const owner = await createProduct();
    const other = await createProduct();
    const img = (await uploadRaw(owner.productCode, jpeg300x200, 'image/jpeg')).body.img;
    const before = [t.snapshot(...TABLES), mediaFiles()];
    const wrongProduct = await t.call('DELETE', `/v1/products/${other.productCode}/images/${img.id}`);
    expect(wrongProduct.status).toBe(404);
    expect(wrongProduct.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    expect((await t.call('DELETE', `/v1/products/${owner.productCode}/images/424242`)).status).toBe(404);
    expect((await t.call('DELETE', `/v1/products/${owner.productCode}/images/photo`)).status).toBe(400);
    expect([t.snapshot(...TABLES), mediaFiles()]).toEqual(before);
  });

  it('lets neither agent nor checkin keys add or remove images', async () => {
    const product = await createProduct();
    const img = (await uploadRaw(product.productCode, jpeg300x200, 'image/jpeg')).body.img;
    const before = [t.snapshot(...TABLES), mediaFiles()];
    for (const role of ['agent', 'checkin'] as const) {
      const add = await uploadMultipart(product.productCode, { filename: 'x.jpg', contentType: 'image/jpeg', bytes: jpeg300x200 }, role);
      expect(add.status).toBe(403);
      expect(add.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
      expect((await t.call('DELETE', `/v1/products/${product.productCode}/images/${img.id}`, { role })).status).toBe(403);
    }
    expect((await t.call('POST', `/v1/products/${product.productCode}/images`, { body: jpeg300x200, headers: { 'content-type': 'image/jpeg' }, role: null })).status).toBe(401);
    expect([t.snapshot(...TABLES), mediaFiles()]).toEqual(before);
  });

  it('keeps JSON routes JSON-only: an image body sent to another route is refused', async () => {
    const res = await t.call('POST', '/v1/products', { body: jpeg300x200, headers: { 'content-type': 'image/jpeg' } });
    expect(res.status).toBe(415);
    expect(res.body.requestStatus.success).toBe(false);
  });
});

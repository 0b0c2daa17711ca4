import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { aProduct } from '../fixtures/builders';
import { exchangeWith, type PeerTransport } from '../../main/sync/exchange';
import { httpTransport } from '../../main/sync/peerClient';
import { nodesClosedAfterEach, type SyncNode } from './nodes';

/**
 * Issue 38: product image files travel by content hash. The row syncs; the desk fetches the original
 * it lacks from the hub (GET /v1/sync/media/{hash}, over real HTTP here), renders the variants and
 * serves them offline; a fetch that fails leaves the rows applied and is tried again next exchange.
 */
const { node } = nodesClosedAfterEach();

const aPng = () => sharp({ create: { width: 640, height: 360, channels: 3, background: '#2a7ab0' } }).png().toBuffer();
const get = async (n: SyncNode, url: string, headers: Record<string, string> = { apikey: n.key }) => n.app.inject({ method: 'GET', url, headers: { host: '127.0.0.1', ...headers } });

async function hubWithImage() {
  const hub = await node('hub', { instanceNo: 1 });
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  const png = await aPng();
  const upload = await hub.app.inject({ method: 'POST', url: `/v1/products/${product.productCode}/images?filename=boat.png`, headers: { host: '127.0.0.1', apikey: hub.key, 'content-type': 'image/png' }, payload: png });
  expect(upload.statusCode, upload.body).toBe(200);
  await hub.app.listen({ port: 0, host: '127.0.0.1' });
  const address = hub.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { hub, product, png, img: upload.json().img as { itemUrl: string; mediumSizeUrl: string; thumbnailUrl: string }, hash: createHash('sha256').update(png).digest('hex'), url };
}

/** The desk's side with its image fetching (the test nodes' own sides exchange rows only). */
const deskSide = (desk: SyncNode) => ({ ...desk.side, media: desk.engine.sync.side.media });

describe('images that travel', () => {
  it('serves on a desk, offline, the image uploaded on the hub, fetched by hash after an exchange; a failed fetch comes next exchange without holding rows back', async () => {
    const { hub, product, png, img, url } = await hubWithImage();
    const desk = await node('desk', { instanceNo: 2, hub });
    const real = httpTransport(url, hub.key);
    let partitioned = true;
    const transport: PeerTransport = { ...real, media: async (hash) => (partitioned ? Promise.reject(new Error('the network went away')) : real.media!(hash)) };

    // Partitioned while fetching files: the rows came anyway, the file did not.
    const first = await exchangeWith(deskSide(desk), transport);
    expect(first.images).toMatchObject({ fetched: 0, failed: [{ reason: 'the network went away' }] });
    expect((await desk.call('GET', `/v1/products/${product.productCode}`)).body.product.images).toEqual([expect.objectContaining({ itemUrl: img.itemUrl })]);
    expect((await get(desk, img.itemUrl)).statusCode).toBe(404);

    partitioned = false;
    const lines: string[] = [];
    const second = await exchangeWith(deskSide(desk), transport, (line) => lines.push(line));
    expect(second.images).toEqual({ fetched: 1, failed: [] });
    expect(lines).toContain('fetched 1 image');
    // The hub goes away: the desk serves the original byte for byte, and variants it rendered itself.
    await hub.app.close();
    const original = await get(desk, img.itemUrl, {});
    expect(original.statusCode).toBe(200);
    expect(Buffer.compare(original.rawPayload, png)).toBe(0);
    for (const variant of [img.mediumSizeUrl, img.thumbnailUrl]) {
      const served = await get(desk, variant, {});
      expect(served.statusCode, variant).toBe(200);
      const meta = await sharp(served.rawPayload).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(480);
    }
    // Nothing is missing any more: nothing is asked for again.
    expect(await desk.engine.sync.side.media!.fetchMissing(() => Promise.reject(new Error('not asked')))).toEqual({ fetched: 0, failed: [] });
  });

  it('refuses a file whose bytes do not match its hash, and keeps asking', async () => {
    const { hub, url } = await hubWithImage();
    const desk = await node('desk', { instanceNo: 2, hub });
    const real = httpTransport(url, hub.key);
    const report = await exchangeWith(deskSide(desk), { ...real, media: async () => aPng().then((b) => Buffer.concat([b, Buffer.from('x')])) });
    expect(report.images?.fetched).toBe(0);
    expect(report.images?.failed[0].reason).toMatch(/does not have that hash/);
    expect((await exchangeWith(deskSide(desk), real)).images).toEqual({ fetched: 1, failed: [] });
  });

  it('answers GET /v1/sync/media/{hash} with the original for a sync-capable key, 400 for a malformed hash, 404 for an unknown one, 401 without a key, 403 for a check-in key', async () => {
    const { hub, png, hash } = await hubWithImage();
    const ok = await get(hub, `/v1/sync/media/${hash}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(ok.rawPayload, png)).toBe(0);
    const bad = await get(hub, '/v1/sync/media/not-a-hash');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().requestStatus.error.errorMessage).toMatch(/SHA-256/);
    const unknown = await get(hub, `/v1/sync/media/${'0'.repeat(64)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().requestStatus.error.errorCode).toBe('NOT_FOUND');
    expect((await get(hub, `/v1/sync/media/${hash}`, {})).statusCode).toBe(401);
    const { key } = (await hub.call('POST', '/v1/apiKeys', { role: 'checkin', name: 'Pier tablet' })).body;
    expect((await get(hub, `/v1/sync/media/${hash}`, { apikey: key })).statusCode).toBe(403);
  });

  it('hashes an image uploaded before content hashes from its file, so desks can fetch it', async () => {
    const { hub, hash } = await hubWithImage();
    hub.sql.prepare('UPDATE product_images SET content_hash = NULL').run();
    expect((await get(hub, `/v1/sync/media/${hash}`)).statusCode).toBe(404);
    expect(await hub.engine.sync.hashOlderImages()).toBe(1);
    expect(hub.sql.prepare('SELECT content_hash FROM product_images').all()).toEqual([{ content_hash: hash }]);
    expect((await get(hub, `/v1/sync/media/${hash}`)).statusCode).toBe(200);
    expect(await hub.engine.sync.hashOlderImages()).toBe(0);
  });
});

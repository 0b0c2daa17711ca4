import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { join } from 'node:path';
import { z } from 'zod';
import { DomainError } from '../../domain/errors';
import { MAX_IMAGE_BYTES } from '../../domain/catalogue/productImages';
import { defineRoute, type RouteHost } from '../route';
import { idParam } from '../../contract/common';
import { qString } from '../../contract/query';
import { makeTreePrivate } from '../../dataFolder';

const codeParams = z.object({ productCode: z.string().trim().min(1).max(40) });
const imageParams = z.object({ productCode: z.string().trim().min(1).max(40), mediaId: idParam });
const tooLarge = () => new DomainError('PAYLOAD_TOO_LARGE', `An image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`);

/** The upload from a multipart form (the first file field) or from a raw image body. */
async function readUpload(request: FastifyRequest, filenameParam: string | undefined): Promise<{ bytes: Buffer; filename?: string }> {
  if (request.isMultipart()) {
    try {
      const file = await request.file();
      if (!file) throw new DomainError('VALIDATION_ERROR', 'The form holds no file; send the image in a file field');
      return { bytes: await file.toBuffer(), filename: file.filename || filenameParam };
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (error instanceof DomainError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
      // The form parser (busboy) throws plain errors for a form it cannot read: no boundary, a cut-off or malformed part.
      throw new DomainError('VALIDATION_ERROR', 'The multipart/form-data body is malformed (a missing boundary, or a part cut off or without headers)');
    }
  }
  if (Buffer.isBuffer(request.body)) return { bytes: request.body, filename: filenameParam };
  throw new DomainError('VALIDATION_ERROR', 'Send the image as multipart/form-data (a file field) or as a raw image/* body with ?filename=');
}

/**
 * Uploads live in their own plugin scope: multipart and raw image bodies are parsed here only,
 * so every JSON route keeps its 1 MiB JSON-only body parsing.
 */
export function registerProductImageRoutes(host: RouteHost): void {
  void host.app.register(async (scoped) => {
    await scoped.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 20, fieldSize: 10_000, parts: 25 } });
    const rawImage = (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => done(null, body);
    scoped.addContentTypeParser(/^image\/[\w.+-]+$/i, { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, rawImage);
    scoped.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, rawImage);
    const scopedHost: RouteHost = { ...host, app: scoped };
    defineRoute(scopedHost, {
      method: 'POST',
      path: '/v1/products/:productCode/images',
      summary: 'Add a product image (multipart/form-data file field, or a raw image/* body with ?filename=); at most 15 MiB',
      tag: 'Products',
      right: 'catalog:write',
      params: codeParams,
      query: z.object({ filename: qString.optional() }),
      handler: async ({ params, query, raw, actor, engine }) => {
        const upload = await readUpload(raw, query.filename);
        const img = await engine.productImages.add(params.productCode, upload, actor);
        // Media files are private like the rest of the data folder (the domain writes them with the default mode).
        if (engine.ctx.dataDir && process.platform !== 'win32') makeTreePrivate(join(engine.ctx.dataDir, 'media'));
        return { img };
      },
    });
    defineRoute(scopedHost, {
      method: 'DELETE',
      path: '/v1/products/:productCode/images/:mediaId',
      summary: 'Remove a product image and its files',
      tag: 'Products',
      right: 'catalog:write',
      params: imageParams,
      handler: async ({ params, actor, engine }) => {
        await engine.productImages.remove(params.productCode, params.mediaId, actor);
        return {};
      },
    });
  });
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchRow } from '../types';
import { afterPoll, benchServer, interleavedRequestsPerSecond } from '../harness';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { DEMO_PRODUCTS } from '../../main/demo';

/** GET /v1/products/{code} against a bare node:http server answering the same JSON from memory (alternating 1 s slices). */
export default async function (): Promise<BenchRow[]> {
  const subject = await benchServer();
  try {
    const product = await subject.engine.products.create(DEMO_PRODUCTS[0], SYSTEM_ACTOR);
    const url = `${subject.baseUrl}/v1/products/${product.productCode}`;
    const body = await (await fetch(url, { headers: { apiKey: subject.key } })).text();

    const bare = createServer((_req, res) =>
      afterPoll(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      }),
    );
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    try {
      const measured = await interleavedRequestsPerSecond({ url, headers: { apiKey: subject.key } }, { url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/` });
      return [{ name: 'GET /v1/products/{code}', unit: 'req/s', subject: measured.subject, baseline: measured.baseline, baselineName: 'bare node:http, same JSON from memory, answered after the poll phase', higherIsBetter: true, goal: 1.7 }];
    } finally {
      await new Promise((r) => bare.close(r));
    }
  } finally {
    await subject.close();
  }
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type RunningServer } from '../hubProcess';

const KEY = 'td_bench_office_0123456789abcdefghijklm';

/** The office's hub as the simulation uses it: one `tourdesk serve --database` process and what it sells. */
export interface OfficeHub {
  server: RunningServer;
  dataDir: string;
  productCode: string;
  /** The departures everyone sells (a week of them, seats enough for the whole day). */
  startTimes: string[];
  /** POST on the hub with its supplier key; the answer's JSON, or the hub's refusal thrown with its log's tail. */
  post(path: string, body: unknown, key?: string): Promise<{ status: number; body: any }>;
  /** A new key of the hub (a desk's sync key, an agent's key). */
  newKey(role: 'sync' | 'agent', name: string): Promise<string>;
}

/** Starts the hub on `databaseUrl` (instance 1) and sets up its catalogue: a product and a week of departures. */
export async function startOfficeHub(databaseUrl: string, dirs: string[]): Promise<OfficeHub> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-office-hub-'));
  dirs.push(dataDir);
  const server = await startServe(['--database', databaseUrl, '--data-dir', dataDir, '--instance', '1'], { TOURDESK_API_KEY: KEY, TOURDESK_DATABASE_URL: '', TOURDESK_LOG: 'error' });
  const post = async (path: string, body: unknown, key = KEY) => {
    const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', apikey: key }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const setUp = async (path: string, body: unknown) => {
    const answer = await post(path, body);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}\n${server.output().slice(-3000)}`);
    return answer.body;
  };
  const product = (await setUp('/v1/products', { name: 'Harbour Walk', durationMinutes: 120, priceOptions: [{ label: 'Adult', price: 50 }, { label: 'Child', price: 25 }] })).product;
  const day = 86_400_000;
  const startTimes = Array.from({ length: 7 }, (_, i) => new Date(Math.floor(Date.now() / day) * day + (i + 1) * day + 9 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'));
  for (const startTime of startTimes) await setUp('/v1/availability', { productCode: product.productCode, startTime, seats: 1_000_000 });
  return {
    server,
    dataDir,
    productCode: product.productCode,
    startTimes,
    post,
    newKey: async (role, name) => (await setUp('/v1/apiKeys', { role, name })).key,
  };
}

/**
 * Bookings before anything is measured, so a phase prices a booking as a warm hub pays for it (JIT,
 * pools, plans). Their customers are named `Warm-up`: the end-of-day check looks only at `OD-` sales.
 */
export async function warmUp(hub: OfficeHub, key: string, bookings: number): Promise<void> {
  for (let i = 0; i < bookings; i++) {
    const answer = await hub.post('/v1/bookings', saleBody(hub.productCode, hub.startTimes[i % hub.startTimes.length], 'Warm-up', false), key);
    if (answer.status !== 200) throw new Error(`warm-up booking: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
  }
}

/** A booking body as an agent or a desk's walk-up form sends it; `marker` (the customer's last name) tells the sale apart everywhere. */
export function saleBody(productCode: string, startTime: string, marker: string, walkUp: boolean) {
  return {
    customer: { firstName: walkUp ? 'Walk' : 'Agent', lastName: marker },
    ...(walkUp ? { sourceChannel: 'Walk-up', payments: [{ type: 'CASH', amount: 125 }] } : { resellerReference: marker }),
    items: [{ productCode, startTime, quantities: [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }], participants: [{}, {}, {}] }],
  };
}

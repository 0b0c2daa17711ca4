import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../main/cli';
import { bootEngine } from '../../main/boot';
import { SYSTEM_ACTOR } from '../../main/domain/context';

let dir: string;
let rateId: number;

const run = async (...argv: string[]) => {
  const lines: string[] = [];
  const code = await main([...argv, '--data-dir', dir], (line) => lines.push(line));
  return { code, text: lines.join('\n') };
};

/** Reads the data folder with a fresh engine, as a second process would. */
const inspect = async <T>(look: (engine: Awaited<ReturnType<typeof bootEngine>>['engine']) => Promise<T>): Promise<T> => {
  const { engine } = await bootEngine({ dataDir: dir });
  try {
    return await look(engine);
  } finally {
    await engine.close();
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-cli-'));
  rateId = await inspect(async (engine) => (await engine.rates.create({ name: 'CLI rate' }, SYSTEM_ACTOR)).rateId);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tourdesk keys create --rate', () => {
  it('creates an agent key whose reseller is on the rate', async () => {
    const { code, text } = await run('keys', 'create', '--role', 'agent', '--name', 'Pier Kiosk', '--rate', String(rateId));
    expect(code).toBe(0);
    expect(text).toContain(`on rate ${rateId}`);
    const key = text.trim().split('\n').pop()!;
    const rateSeen = await inspect(async (engine) => {
      const actor = (await engine.apiKeys.verify(key))!;
      return (await engine.rates.search({ limit: 100, offset: 0 }, actor)).map((r) => r.rateId);
    });
    expect(rateSeen).toEqual([rateId]);
  });

  it('refuses an unknown rate before creating any key, and --rate on a non-agent key', async () => {
    const before = await inspect((engine) => engine.apiKeys.list());
    await expect(run('keys', 'create', '--role', 'agent', '--name', 'Ghost', '--rate', '999999')).rejects.toThrow(/Rate 999999 was not found/);
    await expect(run('keys', 'create', '--role', 'checkin', '--name', 'Gate', '--rate', String(rateId))).rejects.toThrow(/agent keys only/);
    expect(await inspect((engine) => engine.apiKeys.list())).toEqual(before);
  });
});

describe('tourdesk vouchers create', () => {
  it('creates a voucher with the same rules as the API and prints its code', async () => {
    const { code, text } = await run('vouchers', 'create', '--type', 'VALUE', '--value', '25.50', '--code', 'cli-gift-1', '--reference', 'FRONT-DESK', '--expiry', '2099-12-31');
    expect(code).toBe(0);
    expect(text).toMatch(/^Created voucher CLI-GIFT-1 \(VALUE, 25.5 USD, expires 2099-12-31T/);
    const voucher = await inspect((engine) => engine.vouchers.get('CLI-GIFT-1', SYSTEM_ACTOR));
    expect(voucher).toMatchObject({ status: 'ISSUED', value: 25.5, internalReference: 'FRONT-DESK' });
  });

  it('refuses an invalid voucher with a clear message and writes nothing', async () => {
    await expect(run('vouchers', 'create', '--type', 'PERCENT', '--value', '150')).rejects.toThrow(/percentage above 0 and at most 100/);
    await expect(run('vouchers', 'create', '--type', 'GOLD', '--value', '5')).rejects.toThrow(/valueType/);
    await expect(run('vouchers', 'create', '--type', 'VALUE', '--value', '5', '--code', 'CLI-GIFT-1')).rejects.toThrow(/already exists/);
    expect(await inspect(async (engine) => (await engine.vouchers.search({ limit: 100, offset: 0 }, SYSTEM_ACTOR)).length)).toBe(1);
  });
});

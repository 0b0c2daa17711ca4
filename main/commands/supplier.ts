import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { defaultDataDir } from '../config';
import { bootEngine } from '../boot';
import type { Role } from '../domain/platform/apiKeys';
import { SYSTEM_ACTOR } from '../domain/context';
import { voucherBodySchema } from '../contract/vouchers';
import { UsageError, databaseOf, type Out } from './usage';

/* The supplier's own records from the command line: API keys, vouchers and the company. */

export async function keys(args: string[], out: Out): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { role: { type: 'string' }, name: { type: 'string' }, rate: { type: 'string' }, 'data-dir': { type: 'string' }, database: { type: 'string' } },
  });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    if (sub === 'create') {
      if (!values.role || !values.name) throw new UsageError('keys create needs --role and --name');
      const rateId = values.rate === undefined ? null : Number(values.rate);
      if (rateId !== null) {
        if (values.role !== 'agent') throw new UsageError('--rate is for agent keys only');
        if (!Number.isSafeInteger(rateId) || rateId <= 0) throw new UsageError(`--rate ${values.rate} is not a rate id`);
        await engine.rates.rowOrThrow(engine.ctx.db, rateId); // an unknown rate stops us before a key exists
      }
      const { id, key } = await engine.apiKeys.create({ role: values.role as Role, name: values.name });
      if (rateId !== null) {
        const resellerId = (await engine.apiKeys.list()).find((k) => k.id === id)!.resellerId!;
        await engine.resellers.attachRate(rateId, resellerId, SYSTEM_ACTOR);
      }
      out(`Created ${values.role} key ${id} "${values.name}"${rateId === null ? '' : ` on rate ${rateId}`}. Keep it safe; it is shown only now:\n${key}`);
    } else if (sub === 'list') {
      for (const k of await engine.apiKeys.list()) {
        out(`${k.id}\t${k.prefix}…\t${k.role}\t${k.name}${k.resellerName ? ` (agent: ${k.resellerName})` : ''}${k.revoked ? '\tREVOKED' : ''}`);
      }
    } else if (sub === 'revoke') {
      if (!positionals[0]) throw new UsageError('keys revoke needs a key id or prefix');
      // Named by its id and listed prefix: the key itself, when that is what was typed, is not printed back.
      const id = await engine.apiKeys.revoke(positionals[0]);
      const revoked = (await engine.apiKeys.list()).find((k) => k.id === id);
      out(`Revoked key ${id}${revoked ? ` (${revoked.prefix}…, ${revoked.role}, ${revoked.name})` : ''}.`);
    } else {
      throw new UsageError('keys takes create, list or revoke');
    }
  } finally {
    await engine.close();
  }
  return 0;
}

export async function vouchers(args: string[], out: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('vouchers takes create');
  const { values } = parseArgs({
    args: rest,
    options: {
      type: { type: 'string' },
      value: { type: 'string' },
      product: { type: 'string' },
      category: { type: 'string' },
      expiry: { type: 'string' },
      code: { type: 'string' },
      currency: { type: 'string' },
      notes: { type: 'string' },
      reference: { type: 'string' },
      'data-dir': { type: 'string' },
      database: { type: 'string' },
    },
  });
  if (!values.type) throw new UsageError('vouchers create needs --type');
  // The same schema as POST /v1/vouchers, so the CLI and the API accept exactly the same vouchers.
  const parsed = voucherBodySchema.safeParse({
    valueType: values.type,
    value: values.value,
    productCode: values.product,
    categoryId: values.category,
    expiryDate: values.expiry,
    code: values.code,
    currency: values.currency,
    internalNotes: values.notes,
    internalReference: values.reference,
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    const voucher = await engine.vouchers.create(parsed.data, SYSTEM_ACTOR);
    const worth = voucher.value === undefined ? `product ${voucher.productCode}` : voucher.valueType.startsWith('PERCENT') ? `${voucher.value}%` : `${voucher.value} ${voucher.currency}`;
    out(`Created voucher ${voucher.code} (${voucher.valueType}, ${worth}${voucher.expiryDate ? `, expires ${voucher.expiryDate}` : ''}).`);
  } finally {
    await engine.close();
  }
  return 0;
}

/** The supplier company: shown, or changed field by field (fields not given keep their value). */
export async function company(args: string[], out: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'show' && sub !== 'set') throw new UsageError('company takes show or set');
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      alias: { type: 'string' },
      currency: { type: 'string' },
      timezone: { type: 'string' },
      locale: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      website: { type: 'string' },
      'data-dir': { type: 'string' },
      database: { type: 'string' },
    },
  });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const { engine } = await bootEngine({ dataDir, database: databaseOf(values), apiKey: process.env.TOURDESK_API_KEY });
  try {
    if (engine.replica.followsHub() && !(await engine.companies.supplierOrNull())) {
      throw new Error('This desk follows its hub’s catalogue and has not synced with it yet: run `tourdesk sync` (or start `tourdesk serve`, which syncs in the background) and the hub’s company arrives.');
    }
    let current = await engine.companies.supplier();
    if (sub === 'set') {
      current = await engine.companies.configure(
        {
          ...current,
          companyName: values.name ?? current.companyName,
          alias: values.alias ?? current.alias,
          currency: values.currency ?? current.currency,
          timezone: values.timezone ?? current.timezone,
          locale: values.locale ?? current.locale,
          email: values.email ?? current.email,
          phone: values.phone ?? current.phone,
          website: values.website ?? current.website,
        },
        SYSTEM_ACTOR,
      );
    }
    out(`${current.companyName} (alias ${current.alias}) · ${current.currency} · ${current.timezone} · ${current.locale}`);
  } finally {
    await engine.close();
  }
  return 0;
}

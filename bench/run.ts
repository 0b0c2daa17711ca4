import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './types';
import { SERVING_V8_FLAGS, tuneV8ForServing } from '../main/runtime';

/**
 * `npm run bench`: runs every bench/rows/*.ts module and prints one table. Each row is a ratio
 * against a baseline measured in the same run on the same machine, so the numbers travel.
 * `npm run bench -- products` runs only the modules whose name contains "products".
 */
const filter = process.argv[2];
// The subjects run in this process, with V8 as `tourdesk serve` runs it; the baselines share the process.
tuneV8ForServing();
process.stderr.write(`V8 options as \`tourdesk serve\` sets them: ${SERVING_V8_FLAGS.join(' ')}\n`);
const dir = join(import.meta.dirname, 'rows');
const modules = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && (!filter || f.includes(filter)))
  .sort();

const rows: BenchRow[] = [];
for (const file of modules) {
  process.stderr.write(`running ${file}…\n`);
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: () => Promise<BenchRow[]> };
  rows.push(...(await mod.default()));
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3));
const table = rows.map((r) => {
  // Ratio > 1 is always "worse than the baseline by that factor"; 1.00 means as fast as the baseline.
  const cost = r.higherIsBetter ? r.baseline / r.subject : r.subject / r.baseline;
  const goal = [
    r.goal === undefined ? '' : `≤ ${r.goal}× ${cost <= r.goal ? 'met' : 'NOT met'}`,
    r.limit === undefined ? '' : `≤ ${r.limit} ${r.unit} ${r.subject <= r.limit ? 'met' : 'NOT met'}`,
  ].filter(Boolean).join('; ');
  return { bench: r.name, unit: r.unit, tourdesk: fmt(r.subject), baseline: fmt(r.baseline), 'cost (×baseline)': cost.toFixed(2), goal, 'baseline is': r.baselineName };
});
console.table(table);

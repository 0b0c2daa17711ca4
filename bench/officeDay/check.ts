import pg from 'pg';
import type { Sale } from './ledger';

/** The end of day's check: every sale on the hub and on every desk exactly once. */
export interface DayCheck {
  /** The hub and the desks. */
  places: number;
  sales: number;
  /** (place, sale) pairs where the sale is missing. */
  lost: number;
  /** (place, sale) pairs where it is there more than once. */
  doubled: number;
  /** Bookings of the day's kind (an `OD-` marker) no sale of the ledger made. */
  unknown: number;
  /** The first few findings, in words (place 0 is the hub, place n desk n+1). */
  examples: string[];
}

/** Counts each place's bookings per marker against the ledger's sales. */
export function checkSales(sales: readonly Sale[], places: readonly Map<string, number>[]): DayCheck {
  const markers = new Set(sales.map((s) => s.marker));
  const check: DayCheck = { places: places.length, sales: markers.size, lost: 0, doubled: 0, unknown: 0, examples: [] };
  const note = (line: string) => void (check.examples.length < 10 && check.examples.push(line));
  places.forEach((counts, place) => {
    for (const marker of markers) {
      const n = counts.get(marker) ?? 0;
      if (n === 0) check.lost++;
      else if (n > 1) check.doubled++;
      if (n !== 1) note(`${marker}: ${n} at place ${place}`);
    }
    for (const marker of counts.keys()) {
      if (markers.has(marker)) continue;
      check.unknown++;
      note(`${marker}: at place ${place}, sold by no one`);
    }
  });
  return check;
}

/** The hub's bookings per marker, read from its database. */
export async function hubCountsByMarker(databaseUrl: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ marker: string; n: string }>("SELECT c.last_name AS marker, count(*) AS n FROM bookings b JOIN customers c ON c.id = b.customer_id WHERE c.last_name LIKE 'OD-%' GROUP BY c.last_name");
    return new Map(rows.map((r) => [r.marker, Number(r.n)]));
  } finally {
    await client.end();
  }
}

import { describe, expect, it } from 'vitest';
import { checkSales } from '../../bench/officeDay/check';
import { simulateOfficeDay } from '../../bench/officeDay/simulate';
import { freshPostgresDatabase } from '../fixtures/postgres';

/**
 * The office-day bench (bench/rows/officeDay.ts) at a tiny scale, to keep its harness honest: a
 * real hub process on PostgreSQL, two real desks syncing through a proxy that cuts push answers,
 * an agent and walk-ups; its end-of-day check must find every sale on the hub and on both desks
 * exactly once, and must be a check that can find something.
 */
describe('a day of an office, simulated small', () => {
  it('ends with every sale on the hub and on both desks exactly once, though exchanges failed and were retried', { timeout: 300_000 }, async () => {
    const database = await freshPostgresDatabase('office');
    try {
      const result = await simulateOfficeDay({ databaseUrl: database.url, desks: 2, agents: 1, daySeconds: 20, idleSeconds: 3, agentsAloneSeconds: 2, everyMs: 2_000, agentEveryMs: 1_000, walkUpEveryMs: 2_000, cutEvery: 3 });
      expect(result.check, result.check.examples.join('\n')).toMatchObject({ places: 3, lost: 0, doubled: 0, unknown: 0 });
      expect(result.walkUps).toBeGreaterThan(0);
      expect(result.agents.booked).toBeGreaterThan(0);
      // The check looked at every sale the ledger recorded, not at an empty list.
      expect(result.check.sales).toBe(result.agents.booked + result.walkUps);
      // Push answers were cut and those exchanges failed, so the check covers retried exchanges.
      expect(result.cutAnswers).toBeGreaterThan(0);
      expect(result.exchanges.failed).toBeGreaterThanOrEqual(result.cutAnswers);
      // Each walk-up reached the other desk once, and each of the day's agent bookings both desks.
      expect(result.ledger.deskToDesk).toHaveLength(result.walkUps);
      expect(result.ledger.hubToDesk).toHaveLength(result.day.bookings * 2);
      expect(result.ledger.stillUnseen()).toBe(0);
      expect(result.idle.polls).toBeGreaterThan(0);
    } finally {
      await database.drop();
    }
  });

  it('counts a sale missing at a place as lost, one held twice as doubled, and one nobody sold as unknown', () => {
    const sales = ['OD-A1-0', 'OD-D2-0'].map((marker) => ({ marker, deskNo: null, at: 0 }));
    const hub = new Map([['OD-A1-0', 1], ['OD-D2-0', 1]]);
    const desk = new Map([['OD-A1-0', 2], ['OD-X-9', 1]]);
    expect(checkSales(sales, [hub, desk])).toMatchObject({ places: 2, sales: 2, lost: 1, doubled: 1, unknown: 1 });
  });
});

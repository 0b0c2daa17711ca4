import { DateTime } from 'luxon';
import { deskTakingsBetween, overrideCheckinsOfSessionsBetween, type OverrideCheckinRow } from '../../../db/queries/deskDay';
import type { EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { ManifestsService } from './manifests';
import type { DayBoardSession } from '../../contract/manifest';
import type { OverrideCheckin, WeekAnswer, WeekDay } from '../../contract/desk';
import { fromMinor } from '../money';
import { localDate, parseTimeParam, toIso, toLocal } from '../time';
import { parseFields, participantName } from './manifestView';

export interface DeskDayDeps {
  manifests: ManifestsService;
  companies: CompaniesService;
}

/** Pages of the day board wanted for one day: as many as it takes (the board answers 100 at most at a time). */
const BOARD_PAGE = 100;

/**
 * The desk's day, for the manager: a week of departures with the day's totals and the money taken
 * at the desk, and the check-ins admitted under an override. Departures are the day board's
 * (manifests.day), so the week counts seats and people exactly as the board and the manifest do.
 */
export function createDeskDay(ctx: EngineContext, deps: DeskDayDeps) {
  /** The day as [start, end) instants in the company's timezone, from any date form (default: today). */
  async function dayBounds(raw: string | undefined, field: string): Promise<{ date: string; from: number; to: number; zone: string }> {
    const zone = (await deps.companies.supplier()).timezone;
    const date = raw === undefined ? localDate(ctx.clock.now().getTime(), zone) : localDate(parseTimeParam(raw, zone, 'lower', field), zone);
    const start = DateTime.fromISO(date, { zone }).startOf('day');
    return { date, from: start.toMillis(), to: start.plus({ days: 1 }).toMillis(), zone };
  }

  async function departuresOn(date: string): Promise<DayBoardSession[]> {
    const all: DayBoardSession[] = [];
    for (let offset = 0; ; offset += BOARD_PAGE) {
      const page = await deps.manifests.day(date, { limit: BOARD_PAGE, offset });
      all.push(...page);
      if (page.length < BOARD_PAGE) return all;
    }
  }

  async function dayOfWeek(date: string, from: number, to: number): Promise<WeekDay> {
    const departures = (await departuresOn(date)).map((s) => ({
      sessionId: s.id,
      productCode: s.productCode,
      productName: s.productName,
      startTimeLocal: s.startTimeLocal,
      seatsSold: s.seatsBooked,
      capacity: s.seats,
      checkedIn: s.checkedIn,
      noShow: s.noShow,
    }));
    const takings = await deskTakingsBetween(ctx.db, from, to);
    const sum = (pick: (d: (typeof departures)[number]) => number) => departures.reduce((total, d) => total + pick(d), 0);
    return {
      date,
      departures,
      totals: {
        seatsSold: sum((d) => d.seatsSold),
        checkedIn: sum((d) => d.checkedIn),
        noShow: sum((d) => d.noShow),
        moneyTaken: takings.map((row) => ({ type: row.type ?? 'UNSPECIFIED', currency: row.currency, amount: fromMinor(row.net_minor, row.currency), payments: row.payments })),
      },
    };
  }

  function overrideView(row: OverrideCheckinRow, zone: string, keyNames: Map<number, string>): OverrideCheckin {
    const override = JSON.parse(row.override_json) as { rules?: string[]; by?: string | null };
    return {
      eventId: row.event_id,
      by: override.by ?? (row.api_key_id !== null ? (keyNames.get(row.api_key_id) ?? null) : null),
      apiKeyId: row.api_key_id,
      device: row.device,
      rules: override.rules ?? [],
      orderNumber: row.order_number,
      participant: { id: row.participant_id, name: row.fields_json === null ? null : participantName(parseFields(row.fields_json)) },
      occurredAt: toIso(row.occurred_at),
      occurredAtLocal: toLocal(row.occurred_at, zone),
      session: { id: row.session_id, productCode: row.product_code, productName: row.product_name, startTimeLocal: toLocal(row.start_at, zone) },
    };
  }

  return {
    /** `count` days (seven by default) from `from`: each day's departures and totals, and the money taken at the desk. */
    async week(fromDate: string | undefined, count = 7): Promise<WeekAnswer['week']> {
      const first = await dayBounds(fromDate, 'from');
      const days: WeekDay[] = [];
      for (let i = 0; i < count; i++) {
        const start = DateTime.fromISO(first.date, { zone: first.zone }).plus({ days: i });
        days.push(await dayOfWeek(start.toFormat('yyyy-MM-dd'), start.toMillis(), start.plus({ days: 1 }).toMillis()));
      }
      return { from: first.date, timezone: first.zone, days };
    },

    /** The check-ins admitted under an override on the departures of a day, by when they happened. */
    async overrides(date: string | undefined, paging: { limit: number; offset: number }): Promise<OverrideCheckin[]> {
      const day = await dayBounds(date, 'date');
      const rows = await overrideCheckinsOfSessionsBetween(ctx.db, day.from, day.to, paging);
      const keyNames = await deps.manifests.keyNames(ctx.db);
      return rows.map((row) => overrideView(row, day.zone, keyNames));
    },
  };
}

export type DeskDayService = ReturnType<typeof createDeskDay>;

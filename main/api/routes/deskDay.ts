import { defineRoute, type RouteHost } from '../route';
import { overridesQuery, weekQuery, type OverrideCheckin, type WeekAnswer } from '../../contract/desk';

/** The manager's views of the desk's day: the week with its takings, and the check-ins admitted under an override. */
export function registerDeskDayRoutes(host: RouteHost): void {
  const { deskDay } = host.engine;
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest/week',
    summary: "Seven days (or `days`, 1 to 7) of departures (seats sold, capacity, checked in, no-shows) with each day's totals and the money taken at the desk by payment type (TourDesk extension; supplier keys only)",
    tag: 'Manifest',
    right: 'reports',
    query: weekQuery,
    handler: async ({ query }): Promise<WeekAnswer> => ({ week: await deskDay.week(query.from, query.days) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/checkin/overrides',
    summary: 'The check-ins admitted under an override on a day\'s departures: who, whom, which rule, from which device, when (TourDesk extension; supplier keys only)',
    tag: 'Manifest',
    right: 'reports',
    query: overridesQuery,
    handler: async ({ query: { date, ...paging } }): Promise<{ overrides: OverrideCheckin[] }> => ({ overrides: await deskDay.overrides(date, paging) }),
  });
}

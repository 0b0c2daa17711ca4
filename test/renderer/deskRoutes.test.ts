import { describe, expect, it } from 'vitest';
import { parseRoute, urlOf, type Screen } from '../../renderer/src/model/routes';
import { APP_ROUTES } from '../../main/api/server';

describe('the office screens’ URLs', () => {
  it('names bookings, a booking, the walk-up sale and settings by URLs that read back to them', () => {
    const screens: Screen[] = [
      { name: 'bookings', q: '', date: null },
      { name: 'bookings', q: 'Lovelace & co', date: '2030-01-01' },
      { name: 'booking', orderNumber: 'TD1-000123' },
      { name: 'booking', orderNumber: 'A/B 7' },
      { name: 'walkup', sessionId: 42 },
      { name: 'settings' },
    ];
    for (const screen of screens) {
      const [path, search = ''] = urlOf(screen).split('?');
      expect(parseRoute(path, search).screen).toEqual(screen);
    }
    expect(urlOf({ name: 'walkup', sessionId: 42 })).toBe('/walkup?session=42');
    expect(urlOf({ name: 'bookings', q: 'Ada', date: null })).toBe('/bookings?q=Ada');
  });

  it('still opens the old walk-up address, and sends a walk-up without a session to the board', () => {
    expect(parseRoute('/sessions/42/walk-up', '').screen).toEqual({ name: 'walkup', sessionId: 42 });
    expect(parseRoute('/walkup', 'session=x').screen).toEqual({ name: 'board' });
  });

  it('has the server answer the app for every one of them', () => {
    for (const route of ['/walkup', '/bookings', '/bookings/*', '/settings']) expect(APP_ROUTES).toContain(route);
  });
});

import { describe, expect, it } from 'vitest';
import { ERASED_CUSTOMER_ANSWER, eraseAnswer } from '../../main/sync/erasedAnswer';

const answer = {
  eventId: 'scan-1',
  result: 'CHECKED_IN',
  code: 'ABC123XYZ',
  message: 'Checked in Ada Lovelace (Ada wants the window)',
  booking: {
    orderNumber: 'T1-00001',
    customer: { name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', phone: '+61 400 000 000' },
    notes: { internalNotes: 'staff only', comments: 'Ada wants the window', resellerComments: null },
    fields: [{ label: 'Hotel', value: 'Hotel Byron' }],
  },
  participants: [{ id: 7, name: 'Augusta Byron', fields: [{ label: 'Full Name', value: 'Augusta Byron' }], barcode: 'P1', history: [{ eventId: 'scan-1', note: 'Augusta was late' }] }],
};

describe('a stored scan answer of an erased customer', () => {
  it('answers the anonymised customer, empty fields and comments, and cuts their words out of sentences only', () => {
    const erased = JSON.parse(eraseAnswer(JSON.stringify(answer)));
    expect(erased.booking.customer).toEqual(ERASED_CUSTOMER_ANSWER);
    expect(erased.booking.notes).toEqual({ internalNotes: 'staff only', comments: null, resellerComments: null });
    expect(erased.booking.fields).toEqual([]);
    expect(erased.participants[0]).toMatchObject({ id: 7, name: null, fields: [], barcode: 'P1' });
    expect(erased.participants[0].history[0]).toEqual({ eventId: 'scan-1', note: '… was late' });
    expect(erased.message).toBe('Checked in … (…)');
    // Codes, ids and what the verdict was stay as they were.
    expect([erased.eventId, erased.result, erased.code, erased.booking.orderNumber]).toEqual(['scan-1', 'CHECKED_IN', 'ABC123XYZ', 'T1-00001']);
    expect(JSON.stringify(erased)).not.toMatch(/Ada|Lovelace|Augusta|Byron|400 000/);
  });

  it('leaves an answer without a guest (an unknown code) byte for byte, and an erased one unchanged when erased again', () => {
    const unknown = JSON.stringify({ eventId: 'x', result: 'UNKNOWN_CODE', checkedIn: false, code: 'NOPE', message: 'Unknown code' });
    expect(eraseAnswer(unknown)).toBe(unknown);
    const once = eraseAnswer(JSON.stringify(answer));
    expect(eraseAnswer(once)).toBe(once);
  });
});

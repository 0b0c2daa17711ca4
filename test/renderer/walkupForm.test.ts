import { describe, expect, it } from 'vitest';
import { emptyForm, formProblem, type WalkUpForm } from '../../renderer/src/model/walkupForm';

const adult = { id: 1, seatsUsed: 1 };
const family = { id: 2, seatsUsed: 4 };
const form = (patch: Partial<WalkUpForm>): WalkUpForm => ({ ...emptyForm(), ...patch });

describe('the walk-up form, before anything is sent', () => {
  it('refuses more seats than the departure has left, counting a family ticket as the seats it takes', () => {
    expect(formProblem(form({ quantities: { 1: 2 } }), [adult, family], 5, 178)).toBeNull();
    expect(formProblem(form({ quantities: { 1: 1, 2: 2 } }), [adult, family], 5, 500)).toBe('Only 5 seats left on this departure; these tickets take 9.');
    expect(formProblem(form({ quantities: { 1: 2 } }), [adult], 1, 178)).toBe('Only 1 seat left on this departure; these tickets take 2.');
  });

  it('takes an empty amount paid as the total, and refuses one that is not money or is more than the total', () => {
    const two = { quantities: { 1: 2 } };
    expect(formProblem(form({ ...two, paymentType: 'CASH', paymentAmount: '' }), [adult], 10, 178)).toBeNull();
    expect(formProblem(form({ ...two, paymentType: 'CASH', paymentAmount: '100' }), [adult], 10, 178)).toBeNull();
    expect(formProblem(form({ ...two, paymentType: 'CASH', paymentAmount: 'abc' }), [adult], 10, 178)).toBe('Amount paid must be a sum of money, like 178.00.');
    expect(formProblem(form({ ...two, paymentType: 'CASH', paymentAmount: '-5' }), [adult], 10, 178)).toMatch(/must be a sum of money/);
    expect(formProblem(form({ ...two, paymentType: 'CREDITCARD', paymentAmount: '500' }), [adult], 10, 178)).toBe('Amount paid (500.00) is more than the total (178.00): take the total and give change.');
    // Not paid now: whatever is left in the amount field is not taken.
    expect(formProblem(form({ ...two, paymentType: '', paymentAmount: 'abc' }), [adult], 10, 178)).toBeNull();
  });
});

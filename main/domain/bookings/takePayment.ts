import type { BookingsTable } from '../../../db/schema';
import { findPaymentByRef, insertPayment, paymentBalance } from '../../../db/queries/payments';
import type { TakePaymentBody } from '../../contract/payments';
import type { Actor, Tx } from '../context';
import { DomainError } from '../errors';
import { fromMinor, toMinor } from '../money';
import { isLive } from '../statuses';
import { parseTimeParam } from '../time';
import type { Company } from '../platform/companies';
import { agentResellerOf } from './create';
import { signatureOf } from '../signature';

/**
 * Who took a payment, signed as check-ins are (domain/signature.ts): the key's name as it is now (keys
 * do not sync) and the device as it names itself, cleaned the same way.
 */
export function whoDidIt(actor: Actor, device: string | undefined | null) {
  const signed = signatureOf(actor, device);
  return { taken_by: signed.key_name ?? actor.name, taken_device: signed.device };
}

const amountWords = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

/**
 * The desk takes (part of) a live booking's balance, in the caller's transaction: never more than is
 * due, in the booking's currency. A payment whose `paymentRef` is already recorded (the outbox sent
 * it again) changes nothing when it is the same payment, and is refused when it is another.
 * Returns false when the payment was already recorded.
 */
export async function takePaymentRows(tx: Tx, row: BookingsTable, body: TakePaymentBody, company: Company, nextId: () => number): Promise<boolean> {
  const currency = row.currency;
  if (body.currency !== undefined && body.currency !== currency) throw new DomainError('VALIDATION_ERROR', `currency: ${body.currency} differs from the booking's ${currency}`);
  const amountMinor = toMinor(body.amount, currency);
  if (amountMinor <= 0) throw new DomainError('VALIDATION_ERROR', `amount: ${body.amount} is less than the smallest ${currency} amount`);
  if (fromMinor(amountMinor, currency) !== body.amount) throw new DomainError('VALIDATION_ERROR', `amount: ${body.amount} has more decimals than ${currency} has`);
  if (body.paymentRef) {
    const earlier = await findPaymentByRef(tx.db, body.paymentRef);
    if (earlier && earlier.order_number === row.order_number && earlier.amount_minor === amountMinor && earlier.type === body.type) return false;
    if (earlier) throw new DomainError('CONFLICT', `paymentRef ${body.paymentRef} was already used for another payment (${amountWords(earlier.amount_minor, earlier.currency)} on ${earlier.order_number})`);
  }
  if (!isLive(row.status)) throw new DomainError('INVALID_STATE', `Booking ${row.order_number} is ${row.status}: nothing is due on it`);
  const { netPaidMinor, lastPosition } = await paymentBalance(tx.db, row.order_number);
  const dueMinor = Math.max(0, row.total_amount_minor - netPaidMinor);
  if (dueMinor === 0) throw new DomainError('BUSINESS_RULE', `Booking ${row.order_number} is paid: nothing is due`);
  if (amountMinor > dueMinor) throw new DomainError('BUSINESS_RULE', `${amountWords(amountMinor, currency)} is more than the ${amountWords(dueMinor, currency)} due on booking ${row.order_number}`);
  const takenAt = body.takenAt ? Math.min(parseTimeParam(body.takenAt, company.timezone, 'lower', 'takenAt'), tx.now) : tx.now;
  await insertPayment(tx.db, {
    id: nextId(),
    order_number: row.order_number,
    position: lastPosition + 1,
    type: body.type,
    amount_minor: amountMinor,
    currency,
    recipient: null,
    label: body.label ?? null,
    paid_at: takenAt,
    is_refund: 0,
    created_at: tx.now,
    recorded_by_reseller_id: agentResellerOf(tx),
    ...whoDidIt(tx.actor, body.device),
    payment_ref: body.paymentRef ?? null,
  });
  await tx.journal('booking', row.order_number, 'payment', { amountMinor, type: body.type, paymentRef: body.paymentRef ?? null });
  return true;
}

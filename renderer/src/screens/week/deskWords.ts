/** Words the desk's manager views share: seats left or over, money taken by type, override rules, file sizes. */

/** Seats left on a departure, or by how many it is oversold ("2 over"): worded once, by the one format module. */
export { seatsLeft, seatsLeftParts } from '../../../../main/domain/format';


const PAYMENT_TYPE_WORDS: Record<string, string> = {
  CASH: 'Cash',
  CREDITCARD: 'Card',
  CARD: 'Card',
  INVOICE: 'Invoice',
  VOUCHER: 'Voucher',
  BANKTRANSFER: 'Bank transfer',
  REFUND: 'Refunds',
  OTHER: 'Other',
  UNSPECIFIED: 'Type not given',
};

/** A payment type as the desk says it ("CREDITCARD" is "Card"); one it does not know, as the API wrote it. */
export const paymentTypeWord = (type: string) => PAYMENT_TYPE_WORDS[type] ?? type.charAt(0) + type.slice(1).toLowerCase().replace(/_/g, ' ');

const RULE_WORDS: Record<string, string> = {
  WRONG_SESSION: 'another departure',
  CHECKIN_CLOSED: 'check-in closed',
  NOT_YET_OPEN: 'check-in not open yet',
  ALREADY_CHECKED_IN: 'already checked in',
  NOT_PAID: 'not paid',
  INCOMPLETE: 'details missing',
  BOOKING_CANCELLED: 'booking cancelled',
};

/** The rules an override passed, in words ("not paid, check-in closed"). */
export const rulesInWords = (rules: readonly string[]) => (rules.length ? rules.map((r) => RULE_WORDS[r] ?? r.toLowerCase().replace(/_/g, ' ')).join(', ') : 'no rule named');

/** A file size in words ("1.4 MB"), in powers of 1024 as file managers count. */
export function sizeInWords(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${size.toFixed(size < 10 ? 1 : 0)} ${units[unit]}`;
}

import type { TicketSize } from '../../model/routes';

/**
 * The printed paper, as an @page rule for this page only (a rule in print.css would apply to every
 * page the app prints): a roll 80 mm wide as long as it needs, or A4 with margins.
 */
export function PageSize({ size }: { size: TicketSize }) {
  return <style>{size === '80mm' ? '@page { size: 80mm auto; margin: 3mm; }' : '@page { size: A4; margin: 12mm; }'}</style>;
}

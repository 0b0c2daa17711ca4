import type { BookingQuote, PickupLocationAnswer, PriceOptionAnswer } from '../../api/types';
import type { WalkUpForm } from '../../model/walkupForm';
import { useFormats } from '../../lib/formats';
import { useInstance } from '../../store/instance';

/** One part of the walk-up form: the values it shows and a change to some of them. */
interface FormPart {
  form: WalkUpForm;
  set(patch: Partial<WalkUpForm>): void;
}

/** How many of each ticket (whole numbers, none below zero). */
export function TicketsFieldset({ form, set, options }: FormPart & { options: PriceOptionAnswer[] }) {
  const { money } = useFormats((s) => s.formats);
  const currency = useInstance((s) => s.instance?.company?.currency ?? null);
  // Prices are in the company's currency; before the engine has said which, the bare amount.
  const price = (amount: number) => (currency ? money(amount, currency) : amount.toFixed(2));
  return (
    <fieldset>
      <legend>Tickets</legend>
      <div className="grid">
        {options.map((o) => (
          <label key={o.id}>
            {o.label} ({price(o.price)})
            <input type="number" min={0} step={1} max={o.maxQuantity ?? 99} value={form.quantities[o.id] ?? 0} onChange={(e) => set({ quantities: { ...form.quantities, [o.id]: Math.max(0, Math.floor(Number(e.target.value)) || 0) } })} />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function CustomerFieldset({ form, set }: FormPart) {
  return (
    <fieldset>
      <legend>Customer</legend>
      <div className="grid">
        <label>
          First name
          <input value={form.firstName} onChange={(e) => set({ firstName: e.target.value })} />
        </label>
        <label>
          Last name
          <input value={form.lastName} onChange={(e) => set({ lastName: e.target.value })} />
        </label>
        <label>
          Phone
          <input type="tel" value={form.phone} onChange={(e) => set({ phone: e.target.value })} />
        </label>
        <label>
          Email
          <input type="email" value={form.email} onChange={(e) => set({ email: e.target.value })} />
        </label>
      </div>
    </fieldset>
  );
}

/** A name for each of the `count` people the tickets are for. */
export function ParticipantsFieldset({ form, set, count }: FormPart & { count: number }) {
  return (
    <fieldset>
      <legend>Participants</legend>
      <div className="grid">
        {Array.from({ length: count }, (_, i) => (
          <label key={i}>
            Participant {i + 1} name
            <input
              value={form.participantNames[i] ?? ''}
              onChange={(e) => {
                const names = [...form.participantNames];
                names[i] = e.target.value;
                set({ participantNames: names });
              }}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function PickupChoice({ form, set, pickups }: FormPart & { pickups: PickupLocationAnswer[] }) {
  return (
    <label>
      Pickup
      <select value={form.pickup} onChange={(e) => set({ pickup: e.target.value })}>
        <option value="">No pickup</option>
        {pickups.map((p) => (
          <option key={p.locationName} value={p.locationName}>
            {p.locationName}
            {p.address ? ` (${p.address})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

/** How they pay now; the amount defaults to the quoted total. */
export function PaymentFieldset({ form, set, quote }: FormPart & { quote: BookingQuote | null }) {
  return (
    <fieldset>
      <legend>Payment</legend>
      <div className="grid">
        <label>
          Payment type
          <select value={form.paymentType} onChange={(e) => set({ paymentType: e.target.value as WalkUpForm['paymentType'] })}>
            <option value="CASH">Cash</option>
            <option value="CREDITCARD">Credit card</option>
            <option value="">Not paid now</option>
          </select>
        </label>
        <label>
          Amount paid
          <input inputMode="decimal" value={form.paymentAmount} placeholder={quote ? quote.totalAmount.toFixed(2) : '0.00'} onChange={(e) => set({ paymentAmount: e.target.value })} disabled={!form.paymentType} />
        </label>
      </div>
    </fieldset>
  );
}

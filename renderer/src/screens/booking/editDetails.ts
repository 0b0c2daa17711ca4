import type { Booking } from '../../../../main/contract/bookings';

/** What PUT /v1/bookings/{order} lets the desk change (docs/api.md): the customer and the references. */
export interface EditForm {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  resellerReference: string;
  resellerComments: string;
}

export const formOf = (b: Booking): EditForm => ({
  firstName: b.customer?.firstName ?? '',
  lastName: b.customer?.lastName ?? '',
  email: b.customer?.email ?? '',
  phone: b.customer?.phone ?? '',
  resellerReference: b.resellerReference ?? '',
  resellerComments: b.resellerComments ?? '',
});

/**
 * PUT replaces the supported parts whole and clears what is left out (participant fields, pickups),
 * so the body is the booking as GET answered it with the edited fields changed.
 */
export function updateBody(b: Booking, form: EditForm) {
  const { name: _derived, ...storedCustomer } = b.customer ?? ({} as NonNullable<Booking['customer']>);
  const blank = (v: string) => (v.trim() === '' ? undefined : v.trim());
  return {
    ...b,
    customer: { ...storedCustomer, firstName: blank(form.firstName), lastName: blank(form.lastName), email: blank(form.email), phone: blank(form.phone) },
    fields: b.fields,
    resellerReference: blank(form.resellerReference),
    resellerComments: blank(form.resellerComments),
  };
}

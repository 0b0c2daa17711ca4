import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { plainWords } from '../../api/plainWords';
import type { Booking } from '../../api/types';
import type { CompanyAnswer } from '../../../../main/contract/settings';
import { useConnection } from '../../store/connection';

/** What a printed page is made from: the booking and the company whose name and contacts head it. */
export function usePrintData(orderNumber: string) {
  const config = useConnection((s) => s.config)!;
  const [booking, setBooking] = useState<Booking | null>(null);
  const [company, setCompany] = useState<CompanyAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([api(config, 'GET /v1/bookings/:orderNumber', { params: { orderNumber } }), api(config, 'GET /v1/company')])
      .then(([b, c]) => live && (setBooking(b.booking), setCompany(c.company)))
      .catch((e) => live && setError(plainWords(e)));
    return () => {
      live = false;
    };
  }, [config, orderNumber]);
  return { booking, company, error };
}

/** The company's contacts on one line, for the foot of a ticket or a receipt. */
export const contactsOf = (c: CompanyAnswer) => [c.phone, c.email, c.website].filter(Boolean).join(' · ');

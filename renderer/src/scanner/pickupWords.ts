import { pickupLine } from '../api/answers';
import type { BookingContext } from '../api/types';

/** A verdict's pickup on a line of its own ("Pickup: Pier 3 07:40"), worded as the manifest row words it; null without one. */
export const pickupOnVerdict = (pickup: BookingContext['pickup'] | undefined): string | null => pickupLine(pickup ?? null).replace(/^ · /, '') || null;

import { describe, expect, it } from 'vitest';
import { choosePickupLocation, type PickupList } from '../../main/domain/catalogue/pickups';

const list: PickupList = {
  id: 1,
  name: 'City hotels',
  pickupLocations: [
    { locationName: 'Grand Hotel', minutesPrior: 30 },
    { locationName: 'Park Lodge', minutesPrior: 10 },
  ],
};

describe('choosing a pickup location for a booking item', () => {
  it('gives the list location whose name matches, ignoring case and spaces', () => {
    expect(choosePickupLocation(list, '  grand hotel ')).toEqual({ locationName: 'Grand Hotel', minutesPrior: 30 });
  });

  it('ignores a name that matches no location when the list allows no other locations', () => {
    expect(choosePickupLocation(list, 'Airport')).toBeNull();
  });

  it('keeps an unknown name as free text when the list has otherLocationInstructions', () => {
    expect(choosePickupLocation({ ...list, otherLocationInstructions: 'We confirm by email' }, ' Airport ')).toEqual({ locationName: 'Airport' });
  });

  it('ignores any choice when the product has no pickups, and an empty name', () => {
    expect(choosePickupLocation(null, 'Grand Hotel')).toBeNull();
    expect(choosePickupLocation(list, '  ')).toBeNull();
    expect(choosePickupLocation(list, undefined)).toBeNull();
  });
});

/** Bookings: create, quote, update and cancel; their customers and barcodes. */
export { createBookings, type BookingsService } from './bookings';
export { createCustomers, type CustomersService } from './customers';
export { createBarcodes, type BarcodesService } from './barcodes';

/** Commerce: rates and commission, resellers (agents), vouchers. */
export { createRates, type RatesService } from './rates';
export { createResellers, type ResellersService } from './resellers';
export { createVouchers, type VouchersService } from './vouchers';

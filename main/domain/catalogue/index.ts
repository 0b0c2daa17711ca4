/** Catalogue: products and what hangs off them (categories, extras, pickups, images, partner settings, imported codes). */
export { createProducts, type ProductsService } from './products';
export { createCategories, type CategoriesService } from './categories';
export { createExtras, type ExtrasService } from './extras';
export { createPickups, type PickupsService } from './pickups';
export { createPartnerConnect, type PartnerConnectService } from './partnerConnect';
export { createProductImages, type ProductImagesService } from './productImages';
export { createExternalCodes, type ExternalCodesService } from './externalCodes';
